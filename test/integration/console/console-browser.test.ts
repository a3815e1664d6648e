import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PropertyKind, type Broker, type ClientSession } from '../../../src';
import { startConsoleBroker, VIEWER } from '../../support/console-client';
import { ADMIN } from '../../support/secured-broker';
import { useTestBrokers } from '../../support/test-broker';
import { queues, text, waitForQueue } from '../broker-features/support';

/**
 * The console page in a real headless Chromium (Debian's, driven by playwright-core; no browser
 * is downloaded) against a real broker: log in, see a queue's count rise after a send, browse a
 * message, retry dead letters, purge, each change confirmed in the page's dialog. A queue and a
 * message made of HTML show as text and run nothing. Screenshots go to test-artifacts/console/
 * (git-ignored), for a look at what the page showed when a step failed.
 *
 * Chromium must be installed (`apt-get install chromium`; .ci/run does it): without it this test
 * fails, saying so, rather than skip.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', '..', '..', 'test-artifacts', 'console');
const ORDERS = 'jms.queue.orders';
const POISON = 'jms.queue.poison';
const DLQ = 'jms.queue.DLQ';
const HOSTILE = 'jms.queue.<img src=x onerror="window.hacked=1">';
/** The page polls every 2 s; other helpers share the machine's two cores. */
const SEEN_WITHIN = 15_000;

const env = useTestBrokers();
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH; the console's browser test needs it`,
    );
  browser = await chromium.launch({ executablePath: CHROMIUM });
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

interface Rig {
  broker: Broker;
  origin: string;
  admin: ClientSession;
  page: Page;
  /** Script errors and console errors (CSP violations among them) seen by the page. */
  problems: string[];
  /** Alerts, confirms or prompts the page opened (it must open none: its dialog is a <dialog>). */
  nativeDialogs: string[];
}

async function rig(): Promise<Rig> {
  const { broker, origin } = await startConsoleBroker(env, ORDERS, {
    queues: queues(ORDERS, POISON, DLQ, HOSTILE),
    addressSettings: { [POISON]: { maxDeliveryAttempts: 1, deadLetterAddress: DLQ } },
  });
  const admin = await (
    await env.connect(broker)
  ).createSession({ username: ADMIN.name, password: ADMIN.password });
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 } });
  env.track({ close: () => context.close() });
  const page = await context.newPage();
  const problems: string[] = [];
  const nativeDialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (line) => {
    // A refused request (the 401 before login, a viewer's 403) is the page's normal path.
    if (line.type() === 'error' && !line.text().startsWith('Failed to load resource'))
      problems.push(`console: ${line.text()}`);
  });
  page.on('dialog', (dialog) => {
    nativeDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { broker, origin, admin, page, problems, nativeDialogs };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function logIn(r: Rig): Promise<void> {
  await r.page.goto(`${r.origin}/`);
  await r.page.locator('#login-form').waitFor();
  await r.page.fill('input[name=user]', ADMIN.name);
  await r.page.fill('input[name=password]', ADMIN.password);
  await r.page.click('#login-form button[type=submit]');
  await r.page
    .locator('#who')
    .filter({ hasText: `${ADMIN.name} (manage)` })
    .waitFor();
}

/** The Total cell of a queue's row, as the page shows it. */
function totalOf(page: Page, queue: string): ReturnType<Page['locator']> {
  return page.locator(`#queues tbody tr[data-queue='${queue}'] td.count`);
}

async function expectTotal(page: Page, queue: string, count: number): Promise<void> {
  await totalOf(page, queue)
    .filter({ hasText: new RegExp(`^${count}$`) })
    .waitFor({ timeout: SEEN_WITHIN });
}

async function openQueue(page: Page, queue: string): Promise<void> {
  await page.locator(`#queues tbody tr[data-queue='${queue}'] button`, { hasText: 'Messages' }).click();
  await page.locator('#queue-name').filter({ hasText: queue }).waitFor();
}

/** Clicks a queue action and confirms it in the page's dialog; waits for the page to say what it did. */
async function confirmed(page: Page, button: string, outcome: RegExp): Promise<void> {
  await page.click(button);
  await page.locator('#confirm[open]').waitFor();
  await page.click('#confirm-ok');
  await page.locator('#status').filter({ hasText: outcome }).waitFor({ timeout: SEEN_WITHIN });
}

async function send(admin: ClientSession, address: string, bodies: string[]): Promise<void> {
  const producer = admin.createProducer(address);
  for (const [i, body] of bodies.entries()) {
    const message = text(body);
    message.properties.set('customer', { kind: PropertyKind.STRING, value: `customer-${i}` });
    await producer.send(message);
  }
}

test('log in, watch a count rise, browse, retry dead letters, purge', async () => {
  const r = await rig();
  await r.page.goto(`${r.origin}/`);
  await r.page.locator('#login-form').waitFor();
  await shot(r.page, '01-login');

  // A wrong password is refused in the page.
  await r.page.fill('input[name=user]', ADMIN.name);
  await r.page.fill('input[name=password]', 'wrong');
  await r.page.click('#login-form button[type=submit]');
  await r.page.locator('#login-error').filter({ hasText: 'unknown user or wrong password' }).waitFor();

  await logIn(r);
  await expectTotal(r.page, ORDERS, 0);

  await send(r.admin, ORDERS, ['first order', 'second order', 'third order']);
  await expectTotal(r.page, ORDERS, 3);
  await shot(r.page, '02-queues');

  await openQueue(r.page, ORDERS);
  const bodies = r.page.locator('#messages tbody td.body');
  await bodies.first().waitFor();
  expect(await bodies.allTextContents()).toEqual(['first order', 'second order', 'third order']);
  expect(await r.page.locator('#messages tbody td.properties').allTextContents()).toEqual([
    'customer (string) = customer-0',
    'customer (string) = customer-1',
    'customer (string) = customer-2',
  ]);
  await shot(r.page, '03-messages');
  // The top of it, as docs/images/console.png shows the page (copied from here by hand).
  await r.page.screenshot({
    path: path.join(ARTIFACTS, 'console.png'),
    clip: { x: 0, y: 0, width: 1200, height: 540 },
  });

  // Two messages rolled back at their only allowed delivery land in the DLQ; retry sends them back.
  await send(r.admin, POISON, ['poison one', 'poison two']);
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
  await consumer.close();
  await waitForQueue(r.broker, DLQ, (q) => q.messageCount === 2, 'two dead letters');
  await expectTotal(r.page, DLQ, 2);
  await openQueue(r.page, DLQ);
  await r.page
    .locator('#messages tbody td.properties', { hasText: `_HQ_ORIG_ADDRESS (string) = ${POISON}` })
    .first()
    .waitFor();
  await confirmed(r.page, '#retry', /Sent 2 messages of jms.queue.DLQ back/);
  await expectTotal(r.page, DLQ, 0);
  await expectTotal(r.page, POISON, 2);
  expect((await r.broker.management.getQueue(POISON)).messageCount).toBe(2);

  // A cancelled purge changes nothing; a confirmed one empties the queue.
  await openQueue(r.page, ORDERS);
  await r.page.click('#purge');
  await r.page.locator('#confirm[open]').waitFor();
  await shot(r.page, '04-confirm-purge');
  await r.page.click('#confirm button[value=cancel]');
  expect((await r.broker.management.getQueue(ORDERS)).messageCount).toBe(3);
  await confirmed(r.page, '#purge', /Removed 3 messages from jms.queue.orders/);
  expect((await r.broker.management.getQueue(ORDERS)).messageCount).toBe(0);
  await expectTotal(r.page, ORDERS, 0);
  await shot(r.page, '05-purged');

  expect(r.problems).toEqual([]);
  expect(r.nativeDialogs).toEqual([]);
}, 120_000);

test('names and messages made of HTML show as text and run nothing', async () => {
  const r = await rig();
  await send(r.admin, ORDERS, ['<img src=x onerror="window.hacked=2"><script>window.hacked=3</script>']);
  await logIn(r);
  await expectTotal(r.page, HOSTILE, 0);
  await expect(
    r.page.locator(`#queues tbody tr[data-queue='${HOSTILE}'] td.name`).textContent(),
  ).resolves.toBe(HOSTILE);
  await openQueue(r.page, ORDERS);
  await r.page.locator('#messages tbody td.body', { hasText: '<script>window.hacked=3</script>' }).waitFor();
  expect(await r.page.locator('img').count()).toBe(0);
  // Expressions as strings: they run in the page, whose DOM types this Node project does not load.
  expect(await r.page.evaluate('typeof window.hacked')).toBe('undefined');
  // An inline script injected by any means would be blocked by the page's policy, not run.
  await r.page.evaluate(
    "{ const script = document.createElement('script'); script.textContent = 'window.hacked = 4'; document.body.append(script); }",
  );
  expect(await r.page.evaluate('typeof window.hacked')).toBe('undefined');
  await shot(r.page, '06-hostile-names');
  expect(r.problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
  expect(r.nativeDialogs).toEqual([]);
}, 120_000);

test('a read-only user sees the queues and cannot press a change', async () => {
  const r = await rig();
  await r.page.goto(`${r.origin}/`);
  await r.page.fill('input[name=user]', VIEWER.name);
  await r.page.fill('input[name=password]', VIEWER.password);
  await r.page.click('#login-form button[type=submit]');
  await r.page
    .locator('#who')
    .filter({ hasText: `${VIEWER.name} (view only)` })
    .waitFor();
  await expectTotal(r.page, ORDERS, 0);
  await openQueue(r.page, DLQ);
  for (const id of ['#purge', '#move', '#retry', '#pause', '#resume', '#delete'])
    expect(await r.page.locator(id).isDisabled()).toBe(true);
  await r.page.locator('#messages-note', { hasText: /may not read the messages of jms.queue.DLQ/ }).waitFor();
  expect(r.problems).toEqual([]);
}, 120_000);
