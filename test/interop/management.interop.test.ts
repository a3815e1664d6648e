import {
  InteropServer,
  SERVER_VERSIONS,
  type InteropSecurity,
  type ServerKind,
} from './support/interop-server';
import { JavaProcess } from './support/java-process';

/** One step of the Java scenario as it printed it. */
interface StepLine {
  step: string;
  succeeded?: boolean;
  result?: unknown;
  /** The class of the exception the step threw instead of answering. */
  refused?: string;
}

/** A Java program needs seconds to start on a loaded machine; the scenario is some forty requests. */
const SCENARIO_TIMEOUT_MS = 120_000;

/**
 * Runs HornetQ 2.4.7's Java management client (interop.hornetq.ManagementScenario: a QueueRequestor
 * on hornetq.management with JMSManagementHelper) against a server and returns what each step got.
 */
async function runScenario(server: InteropServer, extra: readonly string[] = []): Promise<StepLine[]> {
  const program = JavaProcess.start({
    module: 'hornetq',
    mainClass: 'interop.hornetq.ManagementScenario',
    args: ['--port', String(server.port), ...extra],
    label: `management scenario against ${server.label}`,
  });
  const lines: StepLine[] = [];
  const stopListening = program.onLine((line) => {
    if (line.startsWith('{')) lines.push(JSON.parse(line) as StepLine);
  });
  try {
    await program.waitForLine((line) => line === 'DONE', 'DONE', SCENARIO_TIMEOUT_MS);
  } finally {
    stopListening();
    await program.stop();
  }
  return lines;
}

/**
 * What two servers must agree on: for a JSON text (listMessagesAsJSON and the like), the keys of
 * each object and the types of their values; for the rest, the value itself, except where it
 * cannot be the same on two servers (ids, times, ports), where only its type is kept.
 */
function comparable(line: StepLine): unknown {
  const { step, succeeded = null, result = null } = line;
  if (typeof result === 'string' && /^[[{]/.test(result))
    return { step, succeeded, json: shape(JSON.parse(result)) };
  if (TYPE_ONLY.has(step)) return { step, succeeded, type: typeOf(result), length: lengthOf(result) };
  return { step, succeeded, result };
}

/** Steps whose values differ between two servers by nature. */
const TYPE_ONLY = new Set(['listRemoteAddresses', 'QueueNames']);

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(
      entries.map(([key, inner]) => [key, Array.isArray(inner) ? shape(inner) : typeOf(inner)]),
    );
  }
  return typeOf(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function lengthOf(value: unknown): number | null {
  return Array.isArray(value) ? value.length : null;
}

/**
 * Issue 29: HornetQ 2.4.7's JMSManagementHelper from Java gets the same answers from our broker as
 * from HornetQ 2.4.7: the same steps against both, with the same results, JSON keys and value types.
 */
describe('management by message: HornetQ 2.4.7 Java management client against HornetQ and ours', () => {
  const results = new Map<ServerKind, StepLine[]>();

  for (const kind of ['hornetq', 'ours'] as const) {
    test(`runs the scenario against ${SERVER_VERSIONS[kind]}`, async () => {
      const server = await InteropServer.start(kind, { queues: ['mgmt', 'mgmt2'], topics: ['news'] });
      try {
        results.set(kind, await runScenario(server));
      } finally {
        await server.stop();
      }
      expect(results.get(kind)?.length).toBeGreaterThan(30);
    });
  }

  test('our broker answers every step as HornetQ does', () => {
    const hornetq = results.get('hornetq');
    const ours = results.get('ours');
    if (hornetq === undefined || ours === undefined) throw new Error('a scenario did not run');
    expect(ours.map((line) => line.step)).toEqual(hornetq.map((line) => line.step));
    for (let i = 0; i < hornetq.length; i++) {
      expect(comparable(ours[i] as StepLine)).toEqual(comparable(hornetq[i] as StepLine));
    }
  });

  /** carl may send and consume but not manage; oscar manages. Security on in both servers. */
  const SECURITY: InteropSecurity = {
    users: [
      { name: 'carl', password: 'carl-pw', roles: ['clients'] },
      { name: 'oscar', password: 'oscar-pw', roles: ['clients', 'operators'] },
    ],
    settings: [
      {
        match: 'jms.#',
        permissions: {
          send: ['clients'],
          consume: ['clients'],
          createNonDurableQueue: ['clients'],
          deleteNonDurableQueue: ['clients'],
        },
      },
      { match: 'jms.queue.hornetq.management', permissions: { send: ['clients'], manage: ['operators'] } },
    ],
  };

  test.each(['hornetq', 'ours'] as const)(
    'on %s, a user without manage is refused and the queue is unchanged',
    async (kind) => {
      const server = await InteropServer.start(kind, { queues: ['mgmt'], security: SECURITY });
      let lines: StepLine[];
      try {
        lines = await runScenario(server, ['--refusal', 'carl:carl-pw:oscar:oscar-pw']);
      } finally {
        await server.stop();
      }
      expect(lines).toEqual([
        { step: 'removeMessages without manage', refused: 'javax.jms.JMSSecurityException' },
        { step: 'MessageCount after the refusal', succeeded: true, result: 2 },
      ]);
    },
  );
});
