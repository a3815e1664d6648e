import type { ClientConsumer } from '../../../src';
import { range } from '../../support/test-broker';
import { REATTACH_CLIENT, collect, sendRange, useReattachKit, waitForLength } from './rig';

/**
 * hornetq-spec §7.2 (OrderReattachTest) and §7.3 testA: consumers on non-durable subscriptions of
 * one topic address, the link cut again and again while they receive. Each subscriber must see
 * every message exactly once, in the order it was sent.
 */

const kit = useReattachKit();
const TOPIC = 'news';
const MESSAGES = 500;
const SUBSCRIBERS = 10;

async function subscribe(
  factory: Awaited<ReturnType<typeof kit.rig>>['factory'],
  from: number,
  to: number,
): Promise<ClientConsumer[]> {
  const consumers: ClientConsumer[] = [];
  for (let i = from; i < to; i++) {
    const session = await factory.createSession();
    await session.createQueue(TOPIC, `${TOPIC}.sub${i}`, { durable: false });
    consumers.push(await session.createConsumer(`${TOPIC}.sub${i}`));
    session.start();
  }
  return consumers;
}

test('ten subscribers, a cut after every 100 messages any of them receives: each gets 0..499 once, in order', async () => {
  const { proxy, factory, recorder } = await kit.rig();
  const consumers = await subscribe(factory, 0, SUBSCRIBERS);
  let cuts = 0;
  const seen = consumers.map((consumer) =>
    collect(consumer, (_message, index) => {
      if ((index + 1) % 100 === 0 && cuts < 15) {
        cuts++;
        proxy.cut();
      }
    }),
  );
  const sender = await factory.createSession();
  await sendRange(sender.createProducer(TOPIC), 0, MESSAGES);
  for (const [i, list] of seen.entries()) await waitForLength(list, MESSAGES, `subscriber ${i}`);
  for (const list of seen) expect(list).toEqual(range(MESSAGES));
  expect(cuts).toBeGreaterThanOrEqual(4);
  await recorder.ended(recorder.count('FAILURE_DETECTED'));
  expect(recorder.count('FAILOVER_FAILED')).toBe(0);
  expect(recorder.events.filter((e) => e.type === 'FAILOVER_COMPLETED').every((e) => e.reattached)).toBe(
    true,
  );
  expect(factory.getStatistics().reconnects).toBe(0);
});

test('subscribers on two connections, cuts on a seeded random schedule while sending and receiving', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const second = await kit.connect(proxy.port, REATTACH_CLIENT);
  const consumers = [...(await subscribe(factory, 0, 3)), ...(await subscribe(second, 3, 6))];
  const seen = consumers.map((consumer) => collect(consumer));
  const sender = await factory.createSession();
  const producer = sender.createProducer(TOPIC);
  const schedule = proxy.randomCuts({ meanIntervalMs: 30, maxCuts: 20 });
  // 25 messages between two cuts of the schedule, so that cuts land all through the run.
  for (let batch = 0; batch < MESSAGES / 25; batch++) {
    await sendRange(producer, batch * 25, (batch + 1) * 25);
    await proxy.waitUntil(() => schedule.cuts > batch || schedule.cuts === 20, 5000, 'the next cut');
  }
  for (const [i, list] of seen.entries())
    await waitForLength(list, MESSAGES, `subscriber ${i} (seed ${schedule.seed})`);
  schedule.stop();
  for (const list of seen)
    expect({ seed: schedule.seed, list }).toEqual({ seed: schedule.seed, list: range(MESSAGES) });
  // Each cut resets every link it finds (two when both are up): one that lands while both are
  // reconnecting, as on a loaded machine, resets none, so count links over all 20 cuts.
  expect(schedule.cuts).toBe(20);
  expect(schedule.linksCut).toBeGreaterThanOrEqual(10);
  expect(recorder.count('FAILOVER_FAILED')).toBe(0);
  expect(broker.getSessionCount()).toBe(7);
});
