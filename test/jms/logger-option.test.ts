import { execFile } from 'node:child_process';
import path from 'node:path';
import { HornetQConnectionFactory, IllegalStateException, JMSException } from '../../src';
import { CapturingLogger } from '../support/test-broker';
import { useJmsReattach, waitFor } from './reattach/rig';

/**
 * The factory's logger option: the connections' warnings (a failure, the reconnect, giving up) go
 * to the logger given, and without one the library writes nothing to stderr (checked in a child
 * process running the compiled package, jest's globalSetup having built dist/).
 */

const rig = useJmsReattach();
const SCENARIO = path.resolve(__dirname, '../fixtures/quiet-library/scenario.js');

interface ScenarioRun {
  stdout: { done: boolean; lines: Array<{ level: string; message: string }>; error?: string };
  stderr: string;
}

function runScenario(mode: 'capture' | 'silent'): Promise<ScenarioRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SCENARIO, mode], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error !== null && stdout === '') reject(error);
      else resolve({ stdout: JSON.parse(stdout) as ScenarioRun['stdout'], stderr });
    });
  });
}

test('a cut link and the reattach that follows are logged to the factory logger', async () => {
  await rig.start();
  const logger = new CapturingLogger();
  const { connection } = await rig.connect((factory) => factory.setLogger(logger));
  await connection.start();
  rig.proxy.cut();
  await waitFor(() => logger.find(/reattached to|reconnected to/, ['info']).length > 0, 'the reattach line');
  const server = `tcp://127.0.0.1:${rig.proxy.port}`;
  expect(logger.find(new RegExp(`connection to ${server} failed .*; reconnecting`), ['warn'])).toHaveLength(
    1,
  );
  expect(logger.find(new RegExp(`reattached to ${server}`), ['info'])).toHaveLength(1);
});

test('a factory from a URL takes the logger in its options; the used-rule and the shape are checked', async () => {
  await rig.start();
  const logger = new CapturingLogger();
  const factory = new HornetQConnectionFactory(`tcp://127.0.0.1:${rig.proxy.port}`, { logger });
  expect(factory.getLogger()).toBe(logger);
  expect(new HornetQConnectionFactory().getLogger()).toBeNull();

  const noChild = { debug() {}, info() {}, warn() {}, error() {} };
  expect(() => factory.setLogger(noChild as never)).toThrow(JMSException);
  expect(() => factory.setLogger(noChild as never)).toThrow(/logger lacks the method\(s\) child/);
  expect(() => new HornetQConnectionFactory('tcp://localhost', { logger: 42 as never })).toThrow(
    /logger must be an object with debug, info, warn, error, child methods/,
  );

  const connection = await factory.createConnection();
  try {
    expect(() => factory.setLogger(null)).toThrow(IllegalStateException);
  } finally {
    await connection.close();
  }
});

test('given a logger, the registry warning and the lost broker reach it, and stderr stays empty', async () => {
  const run = await runScenario('capture');
  expect(run.stdout.error).toBeUndefined();
  expect(run.stdout.done).toBe(true);
  const messages = run.stdout.lines.map((line) => `${line.level} ${line.message}`);
  expect(messages).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^warn .*jmx-management-enabled/),
      expect.stringMatching(/^warn connection to tcp:\/\/127\.0\.0\.1:\d+ failed .*; reconnecting$/),
      expect.stringMatching(/^error could not reconnect to tcp:\/\/127\.0\.0\.1:\d+; giving up$/),
    ]),
  );
  expect(run.stderr).toBe('');
});

test('without a logger the same run writes nothing to stderr', async () => {
  const run = await runScenario('silent');
  expect(run.stdout).toEqual({ done: true, lines: [] });
  expect(run.stderr).toBe('');
});
