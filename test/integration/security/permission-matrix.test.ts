import {
  HornetQConnectionFactory,
  HornetQException,
  HornetQQueue,
  HornetQTopic,
  JMSSecurityException,
  Session,
  type Broker,
  type ClientSession,
  type HornetQConnection,
  type HornetQSession,
  type SessionSettings,
} from '../../../src';
import { PacketType } from '../../../src/core/protocol';
import { MANAGEMENT_ADDRESS, PERMISSIONS, type Permission } from '../../../src/server/security/permission';
import type { SecuritySetting } from '../../../src/server/security/security-store';
import { messagesRouted, queueStates } from '../../support/broker-snapshot';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { ADMIN, setting, type Grants, type TestUser } from '../../support/secured-broker';
import { seqOf, sequenced, useTestBrokers } from '../../support/test-broker';

/**
 * Issue 15's matrix of user × permission × operation, against a real broker over TCP. For every
 * operation the table below lists the permissions it needs (on which address); for each of those
 * permissions four users try it:
 *
 * - one whose roles are granted every permission the operation needs, on the broad match `jms.#`;
 * - one that lacks the permission (its other roles are granted the rest);
 * - one granted it on `jms.#` while a more specific match covering the address grants the rest
 *   but not it: settings do not inherit, so the specific match takes it away (HornetQ's rule);
 * - one denied it on `jms.#` and granted it by the more specific match, which wins.
 *
 * An allowed operation succeeds and does what it does; a refused one fails with SECURITY_EXCEPTION
 * (JMSSecurityException through JMS) naming the permission and address, and changes nothing on
 * the broker: the same queues, bindings and counters before and after, and no message routed.
 *
 * Every broker starts with ORDERS (durable, two messages in it) and SCRATCH, where every user
 * under test may send through its role `bystander` (a second role, granted nothing else).
 */

const ORDERS = 'jms.queue.orders';
const SCRATCH = 'jms.queue.scratch';
const NEWS = 'jms.topic.news';
/** The core client's temporary queue; JMS names its own (jms.tempqueue.<uuid>). */
const TEMP = 'jms.tempqueue.cell';
const TEMP_PREFIX = 'jms.tempqueue.';
const CLIENT_ID = 'cid';
/** The durable subscription `sub` of client id `cid` (HornetQ's JMS queue name for it). */
const SUBSCRIPTION = `${CLIENT_ID}.sub`;
const BYSTANDER = 'bystander';
/** Small enough that the large message of the matrix stays small. */
const MIN_LARGE_MESSAGE_SIZE = 1024;

interface Need {
  readonly permission: Permission;
  /** The address checked; a prefix where the JMS client picks the rest (temporary queues). */
  readonly address: string;
}

/** What a cell's operation may use: the broker, the administrator, and clients as the user under test. */
interface Cell {
  readonly broker: Broker;
  /** A core session as the administrator (one per cell). */
  admin(): Promise<ClientSession>;
  /** A new core session as the user under test, on a connection of its own. */
  core(settings?: Partial<SessionSettings>): Promise<ClientSession>;
  /** A started JMS connection as the user under test (with a client id when asked). */
  jms(clientID?: string): Promise<HornetQConnection>;
  /** A raw client with a session as the user under test (for packets our client does not send). */
  raw(): Promise<RawClient>;
}

/** An operation prepared for its attempt (everything before it done): what it does, and what it leaves. */
interface Attempt {
  act(): Promise<unknown>;
  /** After an allowed attempt: checks that it did what it does. */
  done(): void | Promise<void>;
}

interface Operation {
  readonly name: string;
  readonly api: 'core' | 'JMS';
  /** The permissions the operation needs: each is one row of cells. */
  readonly needs: readonly Need[];
  /** Permissions the user's own preparation needs: every user of the operation holds them. */
  readonly alsoNeeds?: readonly Need[];
  prepare(cell: Cell): Promise<Attempt>;
}

const need = (permission: Permission, address: string): Need => ({ permission, address });

function queueOf(broker: Broker, name: string): ReturnType<Broker['listQueues']>[number] | undefined {
  return broker.listQueues().find((queue) => queue.name === name);
}

function expectQueue(broker: Broker, name: string, expected: Record<string, unknown>): void {
  expect(queueOf(broker, name)).toMatchObject(expected);
}

/** The answer of a raw request that must be NULL_RESPONSE; an EXCEPTION is thrown as the broker's error. */
function nullResponse(answer: { type: number; code?: unknown; message?: unknown }): void {
  if (answer.type === PacketType.EXCEPTION) {
    const { code, message } = answer as { code: HornetQException['code']; message: string };
    throw new HornetQException(code, message);
  }
  expect(answer.type).toBe(PacketType.NULL_RESPONSE);
}

async function jmsSession(cell: Cell, clientID?: string): Promise<HornetQSession> {
  const connection = await cell.jms(clientID);
  return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
}

const OPERATIONS: readonly Operation[] = [
  {
    name: 'a non-blocking send',
    api: 'core',
    needs: [need('send', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      const refusals: HornetQException[] = [];
      session.setAsyncErrorHandler((error) => refusals.push(error));
      const producer = session.createProducer(ORDERS);
      return {
        async act() {
          await producer.send(sequenced(10, { durable: false }));
          // Answered in order: once the query is, the broker has handled the send (and refused it).
          await session.queueQuery(ORDERS);
          if (refusals.length > 0) throw refusals[0];
        },
        done: () => expectQueue(cell.broker, ORDERS, { messageCount: 3, messagesAdded: 3 }),
      };
    },
  },
  {
    name: 'a blocking send',
    api: 'core',
    needs: [need('send', ORDERS)],
    async prepare(cell) {
      const producer = (await cell.core()).createProducer(ORDERS);
      return {
        act: () => producer.send(sequenced(10, { durable: true })),
        done: () => expectQueue(cell.broker, ORDERS, { messageCount: 3, messagesAdded: 3 }),
      };
    },
  },
  ...[false, true].map((large): Operation => ({
    name: `${large ? 'a blocking large message' : 'a non-blocking send'} in a transaction, with an allowed send to SCRATCH before it`,
    api: 'core',
    needs: [need('send', ORDERS)],
    async prepare(cell) {
      const session = await cell.core({ autoCommitSends: false, autoCommitAcks: false });
      // A refused non-blocking send is also reported on its own; the commit is what must fail.
      session.setAsyncErrorHandler(() => undefined);
      const allowed = session.createProducer(SCRATCH);
      const producer = session.createProducer(ORDERS);
      const message = large
        ? sequenced(10, { durable: true, body: Buffer.alloc(8 * MIN_LARGE_MESSAGE_SIZE, 7) })
        : sequenced(10, { durable: false });
      return {
        async act() {
          await allowed.send(sequenced(20, { durable: false }));
          // A blocking send is refused at once, and the transaction with it: the commit must fail.
          const refused: unknown = await producer.send(message).then(
            () => null,
            (error: unknown) => error,
          );
          await session.commit();
          if (refused !== null)
            throw new Error(`the commit succeeded after a refused send: ${String(refused)}`);
        },
        done() {
          expectQueue(cell.broker, ORDERS, { messageCount: 3 });
          expectQueue(cell.broker, SCRATCH, { messageCount: 1 });
        },
      };
    },
  })),
  {
    name: 'a large message',
    api: 'core',
    needs: [need('send', ORDERS)],
    async prepare(cell) {
      const producer = (await cell.core()).createProducer(ORDERS);
      const body = Buffer.alloc(8 * MIN_LARGE_MESSAGE_SIZE, 7);
      return {
        act: () => producer.send(sequenced(10, { durable: true, body })),
        done: () => expectQueue(cell.broker, ORDERS, { messageCount: 3, messagesAdded: 3 }),
      };
    },
  },
  {
    name: 'a consumer',
    api: 'core',
    needs: [need('consume', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        async act() {
          const consumer = await session.createConsumer(ORDERS);
          session.start();
          const message = await consumer.receive(5000);
          expect(message === null ? null : seqOf(message)).toBe(0);
          await message?.acknowledge();
        },
        done: () => expectQueue(cell.broker, ORDERS, { consumerCount: 1 }),
      };
    },
  },
  {
    name: 'a browser',
    api: 'core',
    needs: [need('consume', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        async act() {
          const browser = await session.createConsumer(ORDERS, { browseOnly: true });
          session.start();
          const message = await browser.receive(5000);
          expect(message === null ? null : seqOf(message)).toBe(0);
        },
        done: () => expectQueue(cell.broker, ORDERS, { messageCount: 2 }),
      };
    },
  },
  {
    name: 'creating a durable queue',
    api: 'core',
    needs: [need('createDurableQueue', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        act: () => session.createQueue(ORDERS, 'orders.copy', { durable: true }),
        done: () => expectQueue(cell.broker, 'orders.copy', { address: ORDERS, durable: true }),
      };
    },
  },
  {
    name: 'deleting a durable queue (with its messages)',
    api: 'core',
    needs: [need('deleteDurableQueue', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        act: () => session.deleteQueue(ORDERS),
        done: () => expect(queueOf(cell.broker, ORDERS)).toBeUndefined(),
      };
    },
  },
  {
    name: 'creating a non-durable queue',
    api: 'core',
    needs: [need('createNonDurableQueue', ORDERS)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        act: () => session.createQueue(ORDERS, 'orders.transient', { durable: false }),
        done: () => expectQueue(cell.broker, 'orders.transient', { durable: false, temporary: false }),
      };
    },
  },
  {
    name: 'creating a temporary queue',
    api: 'core',
    needs: [need('createNonDurableQueue', TEMP)],
    async prepare(cell) {
      const session = await cell.core();
      return {
        act: () => session.createQueue(TEMP, TEMP, { durable: false, temporary: true }),
        done: () => expectQueue(cell.broker, TEMP, { durable: false, temporary: true }),
      };
    },
  },
  {
    name: 'deleting a non-durable queue',
    api: 'core',
    needs: [need('deleteNonDurableQueue', ORDERS)],
    async prepare(cell) {
      await (await cell.admin()).createQueue(ORDERS, 'orders.transient', { durable: false });
      const session = await cell.core();
      return {
        act: () => session.deleteQueue('orders.transient'),
        done: () => expect(queueOf(cell.broker, 'orders.transient')).toBeUndefined(),
      };
    },
  },
  {
    name: 'deleting its own temporary queue',
    api: 'core',
    needs: [need('deleteNonDurableQueue', TEMP)],
    alsoNeeds: [need('createNonDurableQueue', TEMP)],
    async prepare(cell) {
      const session = await cell.core();
      await session.createQueue(TEMP, TEMP, { durable: false, temporary: true });
      return {
        act: () => session.deleteQueue(TEMP),
        done: () => expect(queueOf(cell.broker, TEMP)).toBeUndefined(),
      };
    },
  },
  ...[true, false].map((durable): Operation => ({
    name: `creating a ${durable ? 'durable' : 'non-durable'} shared queue (CREATE_SHARED_QUEUE)`,
    api: 'core',
    needs: [need(durable ? 'createDurableQueue' : 'createNonDurableQueue', ORDERS)],
    async prepare(cell) {
      const raw = await cell.raw();
      return {
        act: async () =>
          nullResponse(
            await raw.request(RAW_SESSION_CHANNEL, {
              type: PacketType.CREATE_SHARED_QUEUE,
              address: ORDERS,
              queueName: 'orders.shared',
              filter: null,
              durable,
              requiresResponse: true,
            }),
          ),
        done: () => expectQueue(cell.broker, 'orders.shared', { address: ORDERS, durable }),
      };
    },
  })),
  {
    name: 'queue statistics (SESS_QUEUE_STATS)',
    api: 'core',
    needs: [need('manage', MANAGEMENT_ADDRESS)],
    async prepare(cell) {
      const session = await cell.core();
      let listed: Array<{ name: string; messageCount: number }> = [];
      return {
        act: async () => (listed = await session.queueStats()),
        done: () => expect(listed).toContainEqual(expect.objectContaining({ name: ORDERS, messageCount: 2 })),
      };
    },
  },
  {
    name: 'a JMS send',
    api: 'JMS',
    needs: [need('send', ORDERS)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      const producer = await session.createProducer(new HornetQQueue('orders'));
      return {
        act: () => producer.send(session.createTextMessage('hello')),
        done: () => expectQueue(cell.broker, ORDERS, { messageCount: 3, messagesAdded: 3 }),
      };
    },
  },
  {
    name: 'a JMS consumer',
    api: 'JMS',
    needs: [need('consume', ORDERS)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      return {
        async act() {
          const consumer = await session.createConsumer(new HornetQQueue('orders'));
          expect(await consumer.receive(5000)).not.toBeNull();
        },
        done: () => expectQueue(cell.broker, ORDERS, { consumerCount: 1 }),
      };
    },
  },
  {
    name: 'a JMS queue browser',
    api: 'JMS',
    needs: [need('consume', ORDERS)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      let seen = 0;
      return {
        async act() {
          const browser = await session.createBrowser(new HornetQQueue('orders'));
          for await (const message of browser.getEnumeration()) {
            expect(message).toBeDefined();
            seen++;
          }
        },
        done() {
          expect(seen).toBe(2);
          expectQueue(cell.broker, ORDERS, { messageCount: 2 });
        },
      };
    },
  },
  {
    name: 'a JMS temporary queue',
    api: 'JMS',
    needs: [need('createNonDurableQueue', TEMP_PREFIX)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      return {
        act: () => session.createTemporaryQueue(),
        done: () =>
          expect(cell.broker.listQueues()).toContainEqual(
            expect.objectContaining({ address: expect.stringMatching(/^jms\.tempqueue\./), temporary: true }),
          ),
      };
    },
  },
  {
    name: 'deleting its own JMS temporary queue',
    api: 'JMS',
    needs: [need('deleteNonDurableQueue', TEMP_PREFIX)],
    alsoNeeds: [need('createNonDurableQueue', TEMP_PREFIX)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      const queue = await session.createTemporaryQueue();
      return {
        act: () => queue.delete(),
        done: () => expect(cell.broker.listQueues().filter((q) => q.temporary)).toEqual([]),
      };
    },
  },
  {
    name: 'a JMS durable subscription (createDurableSubscriber)',
    api: 'JMS',
    needs: [need('createDurableQueue', NEWS)],
    // Held, not varied: the JMS client makes the queue before its consumer (as HornetQ's does), so
    // a user without consume would be refused only once the queue exists. The next operation
    // varies consume on a subscription that exists already.
    alsoNeeds: [need('consume', NEWS)],
    async prepare(cell) {
      const session = await jmsSession(cell, CLIENT_ID);
      return {
        act: () => session.createDurableSubscriber(new HornetQTopic('news'), 'sub'),
        done: () =>
          expectQueue(cell.broker, SUBSCRIPTION, { address: NEWS, durable: true, consumerCount: 1 }),
      };
    },
  },
  {
    name: 'a JMS subscriber of an existing durable subscription',
    api: 'JMS',
    needs: [need('consume', NEWS)],
    async prepare(cell) {
      await (await cell.admin()).createQueue(NEWS, SUBSCRIPTION, { durable: true });
      const session = await jmsSession(cell, CLIENT_ID);
      return {
        act: () => session.createDurableSubscriber(new HornetQTopic('news'), 'sub'),
        done: () => expectQueue(cell.broker, SUBSCRIPTION, { consumerCount: 1 }),
      };
    },
  },
  {
    name: 'a JMS unsubscribe',
    api: 'JMS',
    needs: [need('deleteDurableQueue', NEWS)],
    async prepare(cell) {
      await (await cell.admin()).createQueue(NEWS, SUBSCRIPTION, { durable: true });
      const session = await jmsSession(cell, CLIENT_ID);
      return {
        act: () => session.unsubscribe('sub'),
        done: () => expect(queueOf(cell.broker, SUBSCRIPTION)).toBeUndefined(),
      };
    },
  },
  {
    name: 'a JMS non-durable topic subscriber',
    api: 'JMS',
    needs: [need('createNonDurableQueue', NEWS)],
    // Held, not varied, as for the durable subscription: the queue is made before the consumer.
    alsoNeeds: [need('consume', NEWS)],
    async prepare(cell) {
      const session = await jmsSession(cell);
      return {
        act: () => session.createConsumer(new HornetQTopic('news')),
        done: () =>
          expect(cell.broker.listQueues()).toContainEqual(
            expect.objectContaining({ address: NEWS, temporary: true, consumerCount: 1 }),
          ),
      };
    },
  },
];

// ───────────── the users and settings of each cell ─────────────

type ScenarioKey = 'holds' | 'lacks' | 'taken away' | 'granted by the specific match';

interface Scenario {
  readonly key: ScenarioKey;
  readonly user: string;
  readonly allowed: boolean;
  describe(varied: Need, match: string): string;
}

const SCENARIOS: readonly Scenario[] = [
  {
    key: 'holds',
    user: 'holly',
    allowed: true,
    describe: (v) => `granted ${v.permission} on jms.# through role ${roleOf(v.permission)}`,
  },
  {
    key: 'lacks',
    user: 'lacey',
    allowed: false,
    describe: (v) => `without ${v.permission} (none of its roles is granted it)`,
  },
  {
    key: 'taken away',
    user: 'otto',
    allowed: false,
    describe: (v, match) =>
      `granted ${v.permission} on jms.#, which ${match} (more specific, no inheritance) takes away`,
  },
  {
    key: 'granted by the specific match',
    user: 'spencer',
    allowed: true,
    describe: (v, match) => `granted ${v.permission} only by ${match}, more specific than jms.#`,
  },
];

const roleOf = (permission: Permission): string => `can-${permission}`;

/** The more specific match covering an address (than the broad `jms.#`). */
function specificMatch(address: string): string {
  return address.startsWith(TEMP_PREFIX) ? `${TEMP_PREFIX}#` : address;
}

function grantsOf(needs: readonly Need[]): Grants {
  const grants: Partial<Record<Permission, string[]>> = {};
  for (const { permission } of needs) grants[permission] = [roleOf(permission)];
  return grants;
}

/** The settings a cell's broker runs with. */
function settingsFor(operation: Operation, varied: Need, scenario: Scenario): SecuritySetting[] {
  const all = [...operation.needs, ...(operation.alsoNeeds ?? [])];
  const isVaried = (n: Need): boolean => n.permission === varied.permission && n.address === varied.address;
  const broad = scenario.key === 'granted by the specific match' ? all.filter((n) => !isVaried(n)) : all;
  const settings = [setting('#'), setting(SCRATCH, { send: [BYSTANDER] }), setting('jms.#', grantsOf(broad))];
  if (scenario.key === 'taken away' || scenario.key === 'granted by the specific match') {
    const matches = [...new Set(all.map((n) => specificMatch(n.address)))];
    for (const match of matches) {
      const covered = all.filter((n) => specificMatch(n.address) === match);
      settings.push(
        setting(
          match,
          grantsOf(scenario.key === 'taken away' ? covered.filter((n) => !isVaried(n)) : covered),
        ),
      );
    }
  }
  return settings;
}

function userFor(operation: Operation, varied: Need, scenario: Scenario): TestUser {
  const all = [...operation.needs, ...(operation.alsoNeeds ?? [])];
  const held = scenario.key === 'lacks' ? all.filter((n) => n.permission !== varied.permission) : all;
  const roles = [...new Set(held.map((n) => roleOf(n.permission))), BYSTANDER];
  return { name: scenario.user, password: `${scenario.user}-pw`, roles };
}

// ───────────── running a cell ─────────────

const env = useTestBrokers();

async function startCell(operation: Operation, varied: Need, scenario: Scenario): Promise<Cell> {
  const user = userFor(operation, varied, scenario);
  const broker = await env.startBroker(
    {
      queues: [
        { name: ORDERS, address: ORDERS, filter: null, durable: true },
        { name: SCRATCH, address: SCRATCH, filter: null, durable: true },
      ],
    },
    { security: { users: [user], settings: settingsFor(operation, varied, scenario) } },
  );
  const connectAs = async (as: TestUser, settings: Partial<SessionSettings> = {}): Promise<ClientSession> =>
    (await env.connect(broker, { minLargeMessageSize: MIN_LARGE_MESSAGE_SIZE })).createSession({
      username: as.name,
      password: as.password,
      ...settings,
    });
  const admin = await connectAs(ADMIN);
  const preload = admin.createProducer(ORDERS);
  for (const seq of [0, 1]) await preload.send(sequenced(seq, { durable: true }));
  return {
    broker,
    admin: () => Promise.resolve(admin),
    core: (settings) => connectAs(user, settings),
    async jms(clientID) {
      const factory = env.track(new HornetQConnectionFactory({ host: '127.0.0.1', port: broker.getPort() }));
      const connection = await factory.createConnection(user.name, user.password);
      if (clientID !== undefined) await connection.setClientID(clientID);
      await connection.start();
      return connection;
    },
    async raw() {
      const raw = env.track(await RawClient.connect(broker.getPort()));
      const answer = await raw.createSession(RAW_SESSION_CHANNEL, {
        username: user.name,
        password: user.password,
      });
      expect(answer.type).toBe(PacketType.CREATESESSION_RESP);
      return raw;
    },
  };
}

async function expectRefused(
  operation: Operation,
  varied: Need,
  attempt: Promise<unknown>,
  user: string,
): Promise<void> {
  const error: unknown = await attempt.then(
    () => new Error('the operation was allowed'),
    (e: unknown) => e,
  );
  const expectedMessage = `User: ${user} doesn't have permission='${varied.permission}' on address ${varied.address}`;
  if (operation.api === 'JMS') {
    expect(error).toBeInstanceOf(JMSSecurityException);
    expect((error as JMSSecurityException).errorCode).toBe('SECURITY_EXCEPTION');
  } else {
    expect(HornetQException.is(error, 'SECURITY_EXCEPTION')).toBe(true);
  }
  expect((error as Error).message).toContain(expectedMessage);
}

for (const permission of PERMISSIONS) {
  describe(`permission ${permission}`, () => {
    for (const operation of OPERATIONS) {
      for (const varied of operation.needs.filter((n) => n.permission === permission)) {
        describe(`${operation.name} (${operation.api}), needing ${permission} on ${varied.address}`, () => {
          for (const scenario of SCENARIOS) {
            const user = userFor(operation, varied, scenario);
            const title = `${user.name} (roles ${user.roles.join(', ')}), ${scenario.describe(varied, specificMatch(varied.address))}: ${
              scenario.allowed ? 'allowed' : 'refused with SECURITY_EXCEPTION, nothing changes'
            }`;
            test(title, async () => {
              const cell = await startCell(operation, varied, scenario);
              const attempt = await operation.prepare(cell);
              const before = queueStates(cell.broker);
              const routed = messagesRouted(cell.broker);
              if (scenario.allowed) {
                await attempt.act();
                await attempt.done();
                return;
              }
              await expectRefused(operation, varied, attempt.act(), user.name);
              expect(queueStates(cell.broker)).toEqual(before);
              expect(messagesRouted(cell.broker)).toBe(routed);
            });
          }
        });
      }
    }
  });
}
