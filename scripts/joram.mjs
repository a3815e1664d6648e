/**
 * `npm run test:joram [-- --against hornetq]`: runs the JORAM JMS 1.1 conformance suite (the
 * tests HornetQ 2.4 ran, org.fusesource.joram-jms-tests 1.0 from Maven Central) with HornetQ
 * 2.4.7's own JMS client against our broker (`hornetq server`, from dist/, built first when src/ is
 * newer), or with `--against hornetq` against a real HornetQ 2.4.7 server (the baseline). Prints
 * each test's outcome, the pass count and total, and the failing tests; exits 0 only when every
 * test passed. Without Java 17 or Maven it says so in one line and exits 1.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { freeLoopbackPort } from '../bench/lib/free-port.mjs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { buildJavaHarness, JVM_OPTIONS, moduleClasspath, repoRoot, runOrExplain } from './interop-java.mjs';

/** Generous bounds for a shared 2-core machine. */
const SERVER_READY_MS = 120_000;
const SUITE_MS = 60 * 60_000;
const STOP_MS = 30_000;

const against = process.argv.includes('--against')
  ? process.argv[process.argv.indexOf('--against') + 1]
  : 'ours';
if (against !== 'ours' && against !== 'hornetq') {
  process.stderr.write(`joram: --against takes "ours" or "hornetq", not "${against}"\n`);
  process.exit(1);
}

/** The newest modification time of any file under `dir`. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/** dist/cli/hornetq.js, compiled again (npm run build) when any source is newer. */
function builtCli() {
  const cli = path.join(repoRoot, 'dist', 'cli', 'hornetq.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(path.join(repoRoot, 'src'))) return cli;
  process.stdout.write('joram: building the broker (npm run build)\n');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed: the broker cannot start');
  return cli;
}

/** Our broker's configuration: one acceptor on 127.0.0.1:port, nothing persisted, no destinations (the suite's Admin creates them). */
function writeBrokerConfig(dir, port) {
  writeFileSync(
    path.join(dir, 'hornetq-configuration.xml'),
    `<configuration xmlns="urn:hornetq">
   <persistence-enabled>false</persistence-enabled>
   <security-enabled>false</security-enabled>
   <acceptors>
      <acceptor name="netty">
         <factory-class>org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory</factory-class>
         <param key="host" value="127.0.0.1"/>
         <param key="port" value="${port}"/>
      </acceptor>
   </acceptors>
</configuration>
`,
  );
  writeFileSync(path.join(dir, 'hornetq-jms.xml'), '<configuration xmlns="urn:hornetq"></configuration>\n');
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects at the deadline or when the server exits. */
async function waitUntilListening(port, server) {
  const deadline = Date.now() + SERVER_READY_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`the server exited (${server.exitCode ?? server.signalCode}) before listening`);
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not listen on 127.0.0.1:${port} within ${SERVER_READY_MS / 1000} s`);
}

function startServer(port, workDir) {
  if (against === 'hornetq') {
    const args = [
      ...JVM_OPTIONS,
      '-cp',
      moduleClasspath('hornetq'),
      'interop.hornetq.HqServer',
      '--port',
      String(port),
    ];
    return {
      label: `HornetQ 2.4.7.Final on 127.0.0.1:${port}`,
      child: spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] }),
    };
  }
  const cli = builtCli();
  writeBrokerConfig(workDir, port);
  const args = [cli, 'server', '--config', workDir, '--log-level', 'warn'];
  return {
    label: `our broker (hornetq server) on 127.0.0.1:${port}`,
    child: spawn(process.execPath, args, { cwd: workDir, stdio: ['pipe', 'pipe', 'pipe'] }),
  };
}

/** Stops a child: stdin closed (HqServer's lifeline), SIGTERM, then SIGKILL at the bound. */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin.end();
    child.kill('SIGTERM');
  });
}

/** Runs JoramMain; echoes its PASS/FAIL lines, logs the rest, resolves with its JORAM-RESULT. */
function runSuite(port, log) {
  const args = [
    ...JVM_OPTIONS,
    `-Djoram.port=${port}`,
    '-cp',
    moduleClasspath('joram'),
    'interop.joram.JoramMain',
  ];
  const suite = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let result = null;
  createInterface({ input: suite.stdout }).on('line', (line) => {
    if (line.startsWith('JORAM-RESULT ')) result = JSON.parse(line.slice('JORAM-RESULT '.length));
    else log.write(`${line}\n`);
  });
  createInterface({ input: suite.stderr }).on('line', (line) => {
    if (/^(PASS|FAIL) /.test(line)) process.stdout.write(`${line}\n`);
    log.write(`${line}\n`);
  });
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => suite.kill('SIGKILL'), SUITE_MS);
    suite.once('error', reject);
    suite.once('close', (code, signal) => {
      clearTimeout(bound);
      if (result === null) reject(new Error(`the JORAM suite ended (${code ?? signal}) without a result`));
      else resolve(result);
    });
  });
}

await runOrExplain(async () => {
  const buildMs = buildJavaHarness(
    against === 'hornetq' ? ['common', 'hornetq', 'joram'] : ['common', 'joram'],
  );
  process.stdout.write(`joram: Java modules built in ${(buildMs / 1000).toFixed(1)} s\n`);
  const workDir = mkdtempSync(path.join(tmpdir(), 'joram-'));
  const logFile = path.join(workDir, 'joram.log');
  const log = createWriteStream(logFile);
  const port = await freeLoopbackPort();
  const { label, child } = startServer(port, workDir);
  child.stdout.on('data', (chunk) => log.write(chunk));
  child.stderr.on('data', (chunk) => log.write(chunk));
  let result;
  try {
    await waitUntilListening(port, child);
    process.stdout.write(
      `joram: running the JORAM suite with the HornetQ 2.4.7 JMS client against ${label}\n`,
    );
    result = await runSuite(port, log);
  } finally {
    await stopChild(child);
    await new Promise((resolve) => log.end(resolve));
  }
  process.stdout.write(`joram: ${result.passed}/${result.total} passed against ${label}\n`);
  for (const failure of result.failed) process.stdout.write(`  FAILED ${failure.test}: ${failure.message}\n`);
  if (result.failed.length === 0) rmSync(workDir, { recursive: true, force: true });
  else process.stdout.write(`joram: the client's and server's output is in ${logFile}\n`);
  process.exit(result.failed.length === 0 ? 0 : 1);
});
