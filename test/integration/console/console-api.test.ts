import { CoreMessage, PropertyKind, type Broker, type ClientSession } from '../../../src';
import { ConsoleServer } from '../../../src/server';
import { MANAGEMENT_LIMITS } from '../../../src/server/management/management-limits';
import { httpRequest } from '../../support/http-request';
import { APP, ConsoleClient, READER, startConsoleBroker, VIEWER } from '../../support/console-client';
import { ADMIN } from '../../support/secured-broker';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';
import { queues, text, waitForQueue } from '../broker-features/support';

/**
 * The console's JSON API over real HTTP in front of a real broker with security on: every
 * endpoint as the administrator, every change refused to a read-only user and every view refused
 * to a user without the view permission (the broker unchanged after each refusal), cross-site and
 * forged requests refused, and bad input refused with a clear error.
 */
const ORDERS = 'jms.queue.orders';
const AUDIT = 'jms.queue.audit';
const POISON = 'jms.queue.poison';
const DLQ = 'jms.queue.DLQ';
const NEWS = 'jms.topic.news';
const SUBSCRIPTION = 'cid.sub';

const env = useTestBrokers();

interface Rig {
  broker: Broker;
  origin: string;
  logger: CapturingLogger;
  /** A core session as the administrator (sends, consumers). */
  admin: ClientSession;
  /** A client logged in as the administrator. */
  console: ConsoleClient;
}

async function rig(): Promise<Rig> {
  const logger = new CapturingLogger();
  const { broker, origin } = await startConsoleBroker(env, ORDERS, {
    logger,
    queues: [...queues(ORDERS, AUDIT, POISON, DLQ)],
    addressSettings: { [POISON]: { maxDeliveryAttempts: 1, deadLetterAddress: DLQ } },
  });
  const factory = await env.connect(broker);
  const admin = await factory.createSession({ username: ADMIN.name, password: ADMIN.password });
  const console = new ConsoleClient(origin);
  expect((await console.login(ADMIN.name, ADMIN.password)).status).toBe(200);
  return { broker, origin, logger, admin, console };
}

function message(body: string, properties: Record<string, string | number> = {}): CoreMessage {
  const m = text(body);
  for (const [name, value] of Object.entries(properties))
    m.properties.set(
      name,
      typeof value === 'number' ? { kind: PropertyKind.INT, value } : { kind: PropertyKind.STRING, value },
    );
  return m;
}

async function send(session: ClientSession, address: string, count: number, prefix = 'm'): Promise<void> {
  const producer = session.createProducer(address);
  for (let i = 0; i < count; i++) await producer.send(message(`${prefix}${i}`, { seq: i }));
}

/** Two messages dead-lettered from POISON to DLQ (rolled back at their only allowed delivery). */
async function deadLetterTwo(r: Rig): Promise<void> {
  await send(r.admin, POISON, 2, 'poison');
  const tx = await (
    await env.connect(r.broker)
  ).createSession({
    username: ADMIN.name,
    password: ADMIN.password,
    autoCommitSends: false,
    autoCommitAcks: false,
  });
  const consumer = await tx.createConsumer(POISON);
  tx.start();
  // Acknowledged in the transaction, then rolled back: each has used its only delivery.
  for (let i = 0; i < 2; i++) await (await consumer.receive(5000))?.acknowledge();
  await tx.rollback();
  await waitForQueue(r.broker, POISON, (q) => q.messagesKilled === 2, '2 messages to be dead-lettered');
  await tx.close();
}

/** Every queue's full summary (counters and paused), sorted: what "nothing changed" compares. */
async function brokerState(broker: Broker): Promise<unknown> {
  const summaries = await broker.management.listQueues();
  return summaries.sort((a, b) => a.name.localeCompare(b.name));
}

type Rows = { rows: Array<Record<string, unknown>>; total: number; truncated: boolean };
const rowsOf = (json: unknown): Rows => json as Rows;
const row = (json: unknown, key: string, value: unknown): Record<string, unknown> | undefined =>
  rowsOf(json).rows.find((r) => r[key] === value);

describe('the page', () => {
  it('is served with a strict Content-Security-Policy and no-sniff, and only its own files', async () => {
    const { origin } = await rig();
    const page = await httpRequest(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toContain('<script type="module" src="/console.mjs"></script>');
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const script = await httpRequest(`${origin}/console.mjs`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML/);
    expect((await httpRequest(`${origin}/console.css`)).status).toBe(200);
    expect((await httpRequest(`${origin}/../package.json`)).status).toBe(404);
    expect((await httpRequest(`${origin}/%2e%2e/package.json`)).status).toBe(404);
    const posted = await httpRequest(`${origin}/`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });
});

describe('login', () => {
  it('gives an HttpOnly, SameSite=Strict session cookie and a CSRF token for good credentials only', async () => {
    const r = await rig();
    const wrong = await new ConsoleClient(r.origin).login(ADMIN.name, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('unknown user or wrong password');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    // The broker logs the refusal, never the password tried.
    expect(r.logger.find(/login refused for user "admin"/)).toHaveLength(1);
    expect(r.logger.dump()).not.toContain('not-the-password');
    expect(r.logger.dump()).not.toContain(ADMIN.password);

    const client = new ConsoleClient(r.origin);
    const good = await client.login(VIEWER.name, VIEWER.password);
    expect(good.status).toBe(200);
    expect(String(good.headers['set-cookie'])).toMatch(
      /^hornetq-console-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(good.json).toEqual({
      user: VIEWER.name,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      view: true,
      manage: false,
      managementAddress: 'jms.queue.hornetq.management',
    });
    expect((await client.get('session')).json).toMatchObject({ user: VIEWER.name, manage: false });
    // Neither the session id nor the token is ever logged.
    const sessionId = /=([^;]+);/.exec(String(good.headers['set-cookie']))?.[1];
    expect(r.logger.dump()).not.toContain(String(sessionId));
    expect(r.logger.dump()).not.toContain(String(good.json.csrfToken));
    expect(r.logger.dump()).not.toContain(VIEWER.password);
  });

  it('is required for every API call; logging out ends the session', async () => {
    const r = await rig();
    const anonymous = new ConsoleClient(r.origin);
    for (const path of ['session', 'queues', 'broker', 'connections']) {
      const answer = await anonymous.get(path);
      expect(answer.status).toBe(401);
      expect(answer.json.error).toMatch(/log in first/);
      expect(answer.headers['www-authenticate']).not.toMatch(/basic/i);
    }
    const before = await brokerState(r.broker);
    expect((await anonymous.post(`queues/${ORDERS}/purge`)).status).toBe(401);
    expect(await brokerState(r.broker)).toEqual(before);

    expect((await r.console.post('logout')).json).toEqual({ loggedOut: true });
    const after = await r.console.get('queues');
    expect(after.status).toBe(401);
    expect(after.json.error).toMatch(/session is over/);
  });

  it('ends every session when the server follows a new broker (a restart of EmbeddedJMS)', async () => {
    const r = await rig();
    const second = await startConsoleBroker(env, ORDERS);
    let current: Broker = r.broker;
    const webConsole = env.track(new ConsoleServer(() => current, { host: '127.0.0.1', port: 0 }));
    await webConsole.start();
    const client = new ConsoleClient(`http://127.0.0.1:${webConsole.port}`);
    await client.login(ADMIN.name, ADMIN.password);
    expect((await client.get('queues')).status).toBe(200);
    current = second.broker;
    const after = await client.get('queues');
    expect(after.status).toBe(401);
    expect(after.json.error).toMatch(/session is over/);
    expect((await client.login(ADMIN.name, ADMIN.password)).status).toBe(200);
    expect((await client.get('broker')).json).toMatchObject({ nodeId: second.broker.nodeId });
  });

  it('accepts Basic credentials from a script, checked as a client login is', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 3);
    const script = new ConsoleClient(r.origin, { user: ADMIN.name, password: ADMIN.password });
    expect(row((await script.get('queues')).json, 'name', ORDERS)).toMatchObject({ messageCount: 3 });
    // No CSRF token: a script's POST (no cookie) is not a browser's cross-site request.
    expect((await script.post(`queues/${ORDERS}/purge`)).json).toEqual({ removed: 3 });
    const wrong = new ConsoleClient(r.origin, { user: ADMIN.name, password: 'nope' });
    expect((await wrong.get('queues')).status).toBe(401);
    expect(r.logger.dump()).not.toContain('nope');
  });
});

describe('a broker with security disabled', () => {
  it('lets any user name log in with every right, as it lets every client do everything, and says so', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger, queues: queues(ORDERS) });
    const webConsole = env.track(new ConsoleServer(broker, { host: '127.0.0.1', port: 0, logger }));
    await webConsole.start();
    expect(logger.find(/security is disabled, so any user name and password log in/, ['warn'])).toHaveLength(
      1,
    );
    const client = new ConsoleClient(`http://127.0.0.1:${webConsole.port}`);
    expect((await client.login('anyone', '')).json).toMatchObject({
      user: 'anyone',
      view: true,
      manage: true,
    });
    // The cross-site defences do not depend on security: a forged POST is still refused.
    expect((await client.post(`queues/${ORDERS}/purge`, {}, { Origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await client.post(`queues/${ORDERS}/purge`)).json).toEqual({ removed: 0 });
  });
});

describe('views', () => {
  it('lists queues with ready, unacknowledged and total counts, and rates once two samples are apart', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 5);
    const consumer = await r.admin.createConsumer(ORDERS);
    r.admin.start();
    await waitForQueue(r.broker, ORDERS, (q) => q.deliveringCount === 5, 'the consumer to hold 5');
    await consumer.close();
    await send(r.admin, ORDERS, 2);

    const first = await r.console.get('queues');
    expect(first.status).toBe(200);
    expect(rowsOf(first.json)).toMatchObject({ total: 4, truncated: false });
    expect(row(first.json, 'name', ORDERS)).toMatchObject({
      address: ORDERS,
      messageCount: 7,
      readyCount: 7,
      deliveringCount: 0,
      messagesAdded: 7,
      consumerCount: 0,
      paused: false,
      addedPerSecond: null,
    });
    await send(r.admin, ORDERS, 10);
    // The rig's rate interval is 200 ms: a sample after it measures the 10 sends.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const second = row((await r.console.get('queues')).json, 'name', ORDERS);
    expect(second?.addedPerSecond).toBeGreaterThan(0);
    expect(second?.acknowledgedPerSecond).toBe(0);

    const filtered = await r.console.get('queues?name=aud&limit=1');
    expect(rowsOf(filtered.json)).toMatchObject({ total: 1, truncated: false, rows: [{ name: AUDIT }] });
    const limited = await r.console.get('queues?limit=2');
    expect(rowsOf(limited.json)).toMatchObject({ total: 4, truncated: true });
    expect(rowsOf(limited.json).rows).toHaveLength(2);
    expect((await r.console.get(`queues/${ORDERS}`)).json).toMatchObject({ name: ORDERS, messageCount: 17 });
    expect((await r.console.get('broker')).json).toMatchObject({ started: true, queueCount: 4 });
  });

  it("shows a queue's messages: headers, properties and the start of the body, bounded", async () => {
    const r = await rig();
    const big = message('x'.repeat(5000), { customer: 'ACME <b>' });
    await r.admin.createProducer(ORDERS).send(big);
    await send(r.admin, ORDERS, 3);
    const answer = await r.console.get(`queues/${ORDERS}/messages?limit=2&bodyBytes=16`);
    expect(answer.status).toBe(200);
    const messages = answer.json.messages as Array<Record<string, unknown>>;
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      address: ORDERS,
      durable: true,
      priority: 4,
      state: 'waiting',
      properties: expect.arrayContaining([{ name: 'customer', type: 'string', value: 'ACME <b>' }]),
      body: { size: 5000, truncated: true },
    });
    expect(Buffer.from(String((messages[0]!.body as { base64: string }).base64), 'base64').toString()).toBe(
      'x'.repeat(16),
    );
    expect(messages[1]).toMatchObject({
      properties: expect.arrayContaining([{ name: 'seq', type: 'int', value: 0 }]),
    });
    expect(answer.json.queue).toMatchObject({ name: ORDERS, messageCount: 4 });
    const selected = await r.console.get(`queues/${ORDERS}/messages?filter=${encodeURIComponent('seq = 2')}`);
    expect((selected.json.messages as unknown[]).length).toBe(1);
  });

  it('lists connections, consumers and subscriptions', async () => {
    const r = await rig();
    await r.admin.createQueue(NEWS, SUBSCRIPTION, { durable: true });
    await r.admin.createConsumer(ORDERS);
    const connections = await r.console.get('connections');
    expect(rowsOf(connections.json).rows).toEqual([
      expect.objectContaining({ user: ADMIN.name, sessionCount: 1, consumerCount: 1 }),
    ]);
    const consumers = await r.console.get('consumers');
    expect(rowsOf(consumers.json).rows).toEqual([
      expect.objectContaining({ queueName: ORDERS, browseOnly: false }),
    ]);
    expect(rowsOf((await r.console.get(`consumers?queue=${AUDIT}`)).json).rows).toEqual([]);
    const subscriptions = await r.console.get('subscriptions');
    expect(rowsOf(subscriptions.json).rows).toEqual([
      expect.objectContaining({ topic: NEWS, queueName: SUBSCRIPTION, durable: true }),
    ]);
  });
});

describe('changes', () => {
  it('purge (all or by filter), move, pause and resume, remove one message, delete a queue', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 6);
    expect((await r.console.post(`queues/${ORDERS}/purge`, { filter: 'seq < 2' })).json).toEqual({
      removed: 2,
    });
    expect(
      (await r.console.post(`queues/${ORDERS}/move`, { target: AUDIT, filter: 'seq = 2' })).json,
    ).toEqual({
      moved: 1,
    });
    expect((await r.broker.management.getQueue(AUDIT)).messageCount).toBe(1);

    expect((await r.console.post(`queues/${ORDERS}/pause`)).json).toEqual({ paused: true });
    expect((await r.broker.management.getQueue(ORDERS)).paused).toBe(true);
    expect((await r.console.post(`queues/${ORDERS}/resume`)).json).toEqual({ paused: false });
    expect((await r.broker.management.getQueue(ORDERS)).paused).toBe(false);

    const [first] = await r.broker.management.listMessages(ORDERS, { limit: 1 });
    expect((await r.console.post(`queues/${ORDERS}/messages/${first!.id}/remove`)).json).toEqual({
      removed: true,
    });
    expect((await r.console.post(`queues/${ORDERS}/purge`)).json).toEqual({ removed: 2 });
    expect((await r.console.post(`queues/${AUDIT}/delete`)).json).toEqual({ deleted: true });
    expect((await r.broker.management.getQueueNames()).includes(AUDIT)).toBe(false);
    // Every change is logged with who made it.
    expect(r.logger.find(/http:admin/).length).toBeGreaterThanOrEqual(7);
  });

  it('retry sends dead letters back to the queue they came from', async () => {
    const r = await rig();
    await deadLetterTwo(r);
    expect((await r.broker.management.getQueue(DLQ)).messageCount).toBe(2);
    expect((await r.console.post(`queues/${DLQ}/retry`)).json).toEqual({ retried: 2 });
    expect((await r.broker.management.getQueue(DLQ)).messageCount).toBe(0);
    expect((await r.broker.management.getQueue(POISON)).messageCount).toBe(2);
  });

  it('closes a connection and drops a durable subscription', async () => {
    const r = await rig();
    await r.admin.createQueue(NEWS, SUBSCRIPTION, { durable: true });
    await (await env.connect(r.broker)).createSession({ username: APP.name, password: APP.password });
    await waitFor(() => r.broker.getConnectionCount() === 2, 'two connections');
    const rows = rowsOf((await r.console.get('connections')).json).rows;
    const target = rows.find((c) => c.user === APP.name);
    expect(
      (await r.console.post(`connections/${encodeURIComponent(String(target!.id))}/close`)).json,
    ).toEqual({
      closed: true,
    });
    await waitFor(() => r.broker.getConnectionCount() === 1, 'the closed connection to be gone');
    expect(
      (await r.console.post('subscriptions/drop', { topic: NEWS, clientId: 'cid', name: 'sub' })).json,
    ).toEqual({ dropped: true });
    expect((await r.broker.management.getQueueNames()).includes(SUBSCRIPTION)).toBe(false);
  });
});

describe('permissions', () => {
  /** Every change the API makes, with a body that would work for the administrator. */
  const CHANGES: Array<[string, unknown]> = [
    [`queues/${ORDERS}/purge`, {}],
    [`queues/${ORDERS}/move`, { target: AUDIT }],
    [`queues/${DLQ}/retry`, {}],
    [`queues/${ORDERS}/pause`, {}],
    [`queues/${ORDERS}/resume`, {}],
    [`queues/${ORDERS}/delete`, {}],
    [`queues/${ORDERS}/messages/1/remove`, {}],
    ['connections/1/close', {}],
    ['subscriptions/drop', { topic: NEWS, clientId: 'cid', name: 'sub' }],
  ];

  it('refuses every change to a user without manage, and the broker is unchanged', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 3);
    await deadLetterTwo(r);
    await r.admin.createQueue(NEWS, SUBSCRIPTION, { durable: true });
    const viewer = new ConsoleClient(r.origin);
    await viewer.login(VIEWER.name, VIEWER.password);
    const before = await brokerState(r.broker);
    const connections = r.broker.getConnectionCount();
    for (const [path, body] of CHANGES) {
      const answer = await viewer.post(path, body);
      expect({ path, status: answer.status, error: answer.json.error }).toEqual({
        path,
        status: 403,
        error: `user ${VIEWER.name} may not change the broker: that needs 'manage' on jms.queue.hornetq.management`,
      });
    }
    expect(await brokerState(r.broker)).toEqual(before);
    expect(r.broker.getConnectionCount()).toBe(connections);
  });

  it('refuses every view to a user without the view permission', async () => {
    const r = await rig();
    const app = new ConsoleClient(r.origin);
    expect((await app.login(APP.name, APP.password)).json).toMatchObject({ view: false, manage: false });
    for (const path of [
      'broker',
      'queues',
      `queues/${ORDERS}`,
      `queues/${ORDERS}/messages`,
      'connections',
      'consumers',
      'subscriptions',
    ]) {
      const answer = await app.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect(answer.json.error).toMatch(
        /may not view the broker: that needs 'consume' \(read-only\) or 'manage'/,
      );
    }
    const before = await brokerState(r.broker);
    for (const [path, body] of CHANGES) expect((await app.post(path, body)).status).toBe(403);
    expect(await brokerState(r.broker)).toEqual(before);
  });

  it("shows a queue's messages only to a viewer who may consume from it", async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 1);
    await send(r.admin, AUDIT, 1);
    const viewer = new ConsoleClient(r.origin);
    await viewer.login(VIEWER.name, VIEWER.password);
    expect((await viewer.get('queues')).status).toBe(200);
    const refused = await viewer.get(`queues/${ORDERS}/messages`);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(
      `user ${VIEWER.name} may not read the messages of ${ORDERS}: that needs 'consume' on ${ORDERS} or 'manage' on jms.queue.hornetq.management`,
    );
    const reader = new ConsoleClient(r.origin);
    await reader.login(READER.name, READER.password);
    expect((await reader.get(`queues/${ORDERS}/messages`)).json.messages).toHaveLength(1);
    expect((await reader.get(`queues/${AUDIT}/messages`)).status).toBe(403);
  });
});

describe('cross-site requests', () => {
  it('refuses a POST from another origin, a form, a missing or wrong CSRF token, and a foreign Host', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 2);
    const before = await brokerState(r.broker);
    const purge = `queues/${ORDERS}/purge`;
    const forged: Array<[Record<string, string>, RegExp]> = [
      [{ Origin: 'http://evil.example' }, /another origin \(Origin: http:\/\/evil.example\)/],
      [{ Origin: 'null' }, /another origin/],
      [{ 'Sec-Fetch-Site': 'cross-site' }, /another site/],
      [{ 'Content-Type': 'application/x-www-form-urlencoded' }, /must have Content-Type: application\/json/],
      [{ 'Content-Type': 'text/plain' }, /must have Content-Type: application\/json/],
      [{ 'x-csrf-token': '' }, /must carry the session's token in x-csrf-token/],
      [{ 'x-csrf-token': 'a'.repeat(43) }, /must carry the session's token/],
      [{ Host: 'evil.example:80' }, /does not answer to the host name 'evil.example'/],
    ];
    for (const [headers, error] of forged) {
      const answer = await r.console.post(purge, {}, headers);
      expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
      expect(answer.json.error).toMatch(error);
    }
    expect(await brokerState(r.broker)).toEqual(before);
    // A cross-site read is refused too (a page elsewhere cannot even probe the API).
    expect((await r.console.get('queues', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    // The same request as the page sends it goes through.
    expect((await r.console.post(purge, {}, { 'Sec-Fetch-Site': 'same-origin' })).json).toEqual({
      removed: 2,
    });
  });

  it('refuses a login from another origin (login CSRF)', async () => {
    const r = await rig();
    const answer = await new ConsoleClient(r.origin).request('POST', 'login', {
      body: { user: ADMIN.name, password: ADMIN.password },
      headers: { Origin: 'http://evil.example' },
    });
    expect(answer.status).toBe(403);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });
});

describe('bad input', () => {
  it('is refused with a clear error, and nothing changes', async () => {
    const r = await rig();
    await send(r.admin, ORDERS, 2);
    const before = await brokerState(r.broker);
    const cases: Array<
      [string, string, { body?: unknown; raw?: string; headers?: Record<string, string> }, number, RegExp]
    > = [
      [
        'POST',
        `queues/${ORDERS}/purge`,
        { raw: `{"filter":"${'x'.repeat(20_000)}"}` },
        413,
        /larger than 16384 bytes/,
      ],
      [
        'POST',
        `queues/${ORDERS}/purge`,
        // Chunked: no Content-Length announces the size; the bound is met while it arrives.
        { raw: `{"filter":"${'x'.repeat(40_000)}"}`, headers: { 'Transfer-Encoding': 'chunked' } },
        413,
        /larger than 16384 bytes/,
      ],
      ['POST', `queues/${ORDERS}/purge`, { raw: '{"filter":' }, 400, /not JSON/],
      ['POST', `queues/${ORDERS}/purge`, { raw: '[1,2]' }, 400, /must be a JSON object/],
      [
        'POST',
        `queues/${ORDERS}/purge`,
        { body: { filter: 42 } },
        400,
        /"filter" .* must be a string \(it is number\)/,
      ],
      ['POST', `queues/${ORDERS}/purge`, { body: { filter: 'seq <' } }, 400, /./],
      ['POST', `queues/${ORDERS}/move`, { body: {} }, 400, /needs "target"/],
      ['POST', `queues/${ORDERS}/move`, { body: { target: 'jms.queue.nowhere' } }, 404, /nowhere/],
      ['POST', 'queues/jms.queue.nowhere/purge', {}, 404, /nowhere/],
      [
        'POST',
        `queues/${ORDERS}/retry`,
        { body: { messageId: -1 } },
        400,
        /"messageId" .* non-negative integer/,
      ],
      [
        'POST',
        `queues/${ORDERS}/messages/abc/remove`,
        {},
        400,
        /message id in the path must be a non-negative integer/,
      ],
      [
        'POST',
        `queues/${ORDERS}/delete`,
        { body: { removeConsumers: 'yes' } },
        400,
        /"removeConsumers" .* true or false/,
      ],
      ['POST', 'subscriptions/drop', { body: { topic: NEWS } }, 400, /needs "clientId"/],
      ['GET', `queues?limit=0`, {}, 400, /limit must be an integer from 1 to 1000 \(it is '0'\)/],
      ['GET', `queues?limit=abc`, {}, 400, /limit must be an integer/],
      [
        'GET',
        `queues/${ORDERS}/messages?limit=5000`,
        {},
        400,
        new RegExp(`from 1 to ${MANAGEMENT_LIMITS.maxListLimit}`),
      ],
      [
        'GET',
        `queues/${ORDERS}/messages?bodyBytes=99999`,
        {},
        400,
        /bodyBytes must be an integer from 0 to 4096/,
      ],
      ['GET', `queues?name=${'n'.repeat(2000)}`, {}, 400, /name is longer than 1024 characters/],
      ['GET', 'queues/%E0%A4%A/messages', {}, 400, /malformed %-escape/],
      ['GET', 'nothing-here', {}, 404, /no such API path: \/api\/nothing-here/],
      [
        'GET',
        `queues/${ORDERS}/purge`,
        {},
        405,
        /GET is not allowed on \/api\/queues\/jms.queue.orders\/purge/,
      ],
      ['DELETE', `queues/${ORDERS}`, {}, 405, /DELETE is not allowed on the API: GET reads, POST changes/],
      ['GET', `queues?name=${'n'.repeat(5000)}`, {}, 414, /URL is longer than 4096 characters/],
    ];
    for (const [method, path, options, status, error] of cases) {
      const answer = await r.console.request(method, path, options);
      expect({ method, path: path.slice(0, 60), status: answer.status }).toEqual({
        method,
        path: path.slice(0, 60),
        status,
      });
      expect(answer.json.error).toMatch(error);
    }
    expect(await brokerState(r.broker)).toEqual(before);
  });
});
