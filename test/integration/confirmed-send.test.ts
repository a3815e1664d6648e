import type { Broker, ClientProducer, ClientSessionFactory } from '../../src';
import { DeferredSyncStorage } from '../support/deferred-sync-storage';
import { setting, type TestUser } from '../support/secured-broker';
import { range, seqOf, sequenced, waitFor } from '../support/test-broker';
import { QUEUE, REATTACH_BROKER, outcome, sleep, useReattachKit } from './reattach/rig';

/**
 * Sends confirmed by the broker (`confirm: true`): the send goes one-way, so many are in flight,
 * and each promise settles on the broker's word about that very send: resolved by the
 * PACKETS_CONFIRMED that covers its command (the broker confirms only once the message is
 * stored), rejected by our extension's SESS_SEND_REFUSED naming it. Across failures: a reattach
 * brings the confirmations of what was replayed, a re-creation resends what
 * duplicate-id-on-durable-send resends and fails the rest as of unknown fate.
 */

const kit = useReattachKit();
const KiB = Buffer.alloc(1024, 7);

/** Whether a promise has settled, without waiting for it. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { promise, settled: () => done };
}

function confirmedSend(producer: ClientProducer, seq: number, address?: string): Promise<void> {
  return producer.send(sequenced(seq, { durable: true, body: KiB }), address, { confirm: true });
}

/** Everything on `queue`, acknowledged, in the order it is delivered. */
async function drain(target: Broker | number, queue = QUEUE): Promise<number[]> {
  const factory = await kit.connect(target);
  const session = await factory.createSession();
  const consumer = await session.createConsumer(queue);
  session.start();
  const seqs: number[] = [];
  for (;;) {
    const message = await consumer.receive(500);
    if (message === null) break;
    seqs.push(seqOf(message));
    await message.acknowledge();
  }
  await factory.close();
  return seqs;
}

function messageCount(broker: Broker, queue = QUEUE): number {
  return broker.listQueues().find((q) => q.name === queue)?.messageCount ?? 0;
}

test('many confirmed durable sends in flight resolve, each only once the broker stored it', async () => {
  const storage = new DeferredSyncStorage();
  storage.autoRelease = true;
  const { factory, broker } = await kit.rig({ broker: { storage } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the producer to be confirmed');
  storage.autoRelease = false;

  const sends = range(300).map((seq) => tracked(confirmedSend(producer, seq)));
  await waitFor(() => messageCount(broker) === 300, 'the broker to have every send');
  await sleep(300);
  // The broker has them all, but none is on disk: not one send may have resolved.
  expect(sends.filter((send) => send.settled())).toEqual([]);

  storage.autoRelease = true;
  storage.releaseSyncs();
  const outcomes = await Promise.all(sends.map((send) => outcome(send.promise)));
  expect(outcomes.filter((each) => !each.ok)).toEqual([]);
  expect(await drain(broker)).toEqual(range(300));
});

test('a large message is confirmed with its last chunk, once stored', async () => {
  const storage = new DeferredSyncStorage();
  storage.autoRelease = true;
  const { factory, broker } = await kit.rig({ broker: { storage }, client: { minLargeMessageSize: 4096 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the producer to be confirmed');
  storage.autoRelease = false;

  const body = Buffer.alloc(50_000, 1);
  const send = tracked(producer.send(sequenced(0, { durable: true, body }), undefined, { confirm: true }));
  await waitFor(() => messageCount(broker) === 1, 'the broker to have the whole message');
  await sleep(200);
  expect(send.settled()).toBe(false);
  storage.autoRelease = true;
  storage.releaseSyncs();
  await send.promise;
  expect(await drain(broker)).toEqual([0]);
});

describe('refused sends reject, their neighbours resolve', () => {
  const WRITER: TestUser = { name: 'writer', password: 'writer-pw', roles: ['writer'] };
  const CLOSED = 'closed';

  test('a send without permission rejects with SECURITY_EXCEPTION, a large one too; the sends around them are stored', async () => {
    const broker = await kit.startBroker(
      {
        ...REATTACH_BROKER,
        queues: [
          { name: QUEUE, address: QUEUE, filter: null, durable: true },
          { name: CLOSED, address: CLOSED, filter: null, durable: true },
        ],
      },
      {
        security: {
          users: [WRITER],
          settings: [setting('#', { send: ['writer'], consume: ['writer'] }), setting(CLOSED)],
        },
      },
    );
    // A window of one byte: the broker confirms each packet the moment it is handled, so a refusal
    // that went after its confirmation would let the refused send resolve.
    const factory = await kit.connect(broker, { confirmationWindowSize: 1, minLargeMessageSize: 4096 });
    const session = await factory.createSession({ username: WRITER.name, password: WRITER.password });
    const producer = session.createProducer();
    const asyncErrors: unknown[] = [];
    session.setAsyncErrorHandler((error) => asyncErrors.push(error));

    const sends = range(60).map((seq) => {
      if (seq === 20) return outcome(confirmedSend(producer, seq, CLOSED));
      if (seq === 40) {
        const large = sequenced(seq, { durable: true, body: Buffer.alloc(20_000, 2) });
        return outcome(producer.send(large, CLOSED, { confirm: true }));
      }
      return outcome(confirmedSend(producer, seq, QUEUE));
    });
    const outcomes = await Promise.all(sends);
    expect(outcomes[20]).toMatchObject({ ok: false, code: 'SECURITY_EXCEPTION' });
    expect(outcomes[40]).toMatchObject({ ok: false, code: 'SECURITY_EXCEPTION' });
    const resolved = outcomes.flatMap((each, seq) => (each.ok ? [seq] : []));
    expect(resolved).toEqual(range(60).filter((seq) => seq !== 20 && seq !== 40));
    // The refusal went to the send that asked, not to the session's asynchronous error handler.
    expect(asyncErrors).toEqual([]);
    expect(messageCount(broker)).toBe(58);
    expect(messageCount(broker, CLOSED)).toBe(0);
  });

  test('a send to a full address with the FAIL policy rejects with ADDRESS_FULL; later ones to another address resolve', async () => {
    const FULL = 'full';
    const broker = await kit.startBroker({
      ...REATTACH_BROKER,
      queues: [
        { name: QUEUE, address: QUEUE, filter: null, durable: true },
        { name: FULL, address: FULL, filter: null, durable: true },
      ],
      addressSettings: { [FULL]: { maxSizeBytes: 8 * 1024, addressFullPolicy: 'FAIL' } },
    });
    // No producer credits: the broker, not the client, decides that the address is full.
    const factory = await kit.connect(broker, {
      confirmationWindowSize: 1024 * 1024,
      producerWindowSize: -1,
    });
    const session = await factory.createSession();
    const producer = session.createProducer();
    const toFull = await Promise.all(range(20).map((seq) => outcome(confirmedSend(producer, seq, FULL))));
    const toQueue = await Promise.all(range(5).map((seq) => outcome(confirmedSend(producer, seq, QUEUE))));
    const stored = messageCount(broker, FULL);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(20);
    // A prefix was stored and resolved; every send after the address filled was refused.
    expect(toFull.slice(0, stored).every((each) => each.ok)).toBe(true);
    expect(toFull.slice(stored)).toEqual(
      Array.from({ length: 20 - stored }, () => expect.objectContaining({ ok: false, code: 'ADDRESS_FULL' })),
    );
    expect(toQueue.every((each) => each.ok)).toBe(true);
  });
});

test('with confirmation-window-size -1 a confirmed send is refused unsent, naming the setting', async () => {
  const broker = await kit.startBroker(REATTACH_BROKER);
  const factory = await kit.connect(broker, { confirmationWindowSize: -1 });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const refused = await outcome(confirmedSend(producer, 0));
  expect(refused).toMatchObject({ ok: false, code: 'ILLEGAL_STATE' });
  expect(String((refused as { error: Error }).error.message)).toContain('confirmation-window-size');
  expect(messageCount(broker)).toBe(0);
});

test('under repeated cuts (reattach) every confirmed send settles, resolved, and every one is stored exactly once', async () => {
  const { factory, proxy, broker, recorder } = await kit.rig({ client: { producerWindowSize: -1 } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  const cuts = proxy.randomCuts({ meanIntervalMs: 120, durationMs: 2_500 });
  const TOTAL = 3_000;
  const IN_FLIGHT = 200;
  const settledTimes = new Array<number>(TOTAL).fill(0);
  const outcomes: Array<Promise<Awaited<ReturnType<typeof outcome>>>> = [];
  const inFlight = new Set<Promise<unknown>>();
  for (const seq of range(TOTAL)) {
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const send = outcome(confirmedSend(producer, seq)).then((result) => {
      settledTimes[seq] = (settledTimes[seq] ?? 0) + 1;
      return result;
    });
    const slot: Promise<unknown> = send.then(() => inFlight.delete(slot));
    inFlight.add(slot);
    outcomes.push(send);
  }
  const results = await Promise.all(outcomes);
  cuts.stop();
  expect(cuts.linksCut).toBeGreaterThan(0);
  expect(recorder.count('FAILOVER_COMPLETED')).toBeGreaterThan(0);
  expect(settledTimes.every((times) => times === 1)).toBe(true);
  expect(results.filter((each) => !each.ok)).toEqual([]);
  expect(factory.getStatistics().resendBufferBytes).toBe(0);
  expect(await drain(broker)).toEqual(range(TOTAL));
}, 60_000);

describe('across a re-creation', () => {
  /**
   * The link passes `cutBytes` toward the broker and is reset; the broker is restarted on the same
   * in-memory store (so it loses the session), and the client re-creates its session.
   */
  async function sendThroughRecreation(duplicateIdOnDurableSend: boolean) {
    const { factory, proxy, broker, recorder } = await kit.rig({
      client: { producerWindowSize: -1, duplicateIdOnDurableSend },
    });
    const session = await factory.createSession();
    const producer = session.createProducer(QUEUE);
    await confirmedSend(producer, -1);
    proxy.once('reset', () => proxy.refuseNewConnections());
    proxy.cutAfterBytes(150_000, 'toServer');
    const sends = range(300).map((seq) => outcome(confirmedSend(producer, seq)));
    await waitFor(() => recorder.count('FAILURE_DETECTED') === 1, 'the cut to be detected');
    const restarted = await kit.restart(broker);
    proxy.pass();
    await recorder.ended(1, 30_000);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:false']);
    return { results: await Promise.all(sends), delivered: await drain(restarted), factory };
  }

  test('with duplicate-id-on-durable-send every confirmed send resolves with its resend, stored exactly once', async () => {
    const { results, delivered, factory } = await sendThroughRecreation(true);
    expect(factory.getStatistics().resentDurableSends).toBeGreaterThan(0);
    expect(results.filter((each) => !each.ok)).toEqual([]);
    expect(delivered).toEqual([-1, ...range(300)]);
  }, 60_000);

  test('without it, a send the old broker never confirmed rejects UNBLOCKED (fate unknown); every resolved one is stored', async () => {
    const { results, delivered } = await sendThroughRecreation(false);
    const released = results.filter((each) => !each.ok);
    expect(released.length).toBeGreaterThan(0);
    for (const each of released) {
      expect(each).toMatchObject({ code: 'UNBLOCKED' });
      expect(String((each as { error: Error }).error.message)).toContain('before it confirmed this send');
    }
    const resolved = results.flatMap((each, seq) => (each.ok ? [seq] : []));
    const stored = new Set(delivered);
    expect(resolved.filter((seq) => !stored.has(seq))).toEqual([]);
    expect(delivered.length).toBe(stored.size);
  }, 60_000);
});

test('closing the session settles every confirmed send still waiting', async () => {
  const storage = new DeferredSyncStorage();
  storage.autoRelease = true;
  const { factory } = await kit.rig({ broker: { storage } });
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await waitFor(() => factory.getStatistics().resendBufferBytes === 0, 'the producer to be confirmed');
  storage.autoRelease = false;
  const sends = range(50).map((seq) => outcome(confirmedSend(producer, seq)));
  await sleep(100);
  const closing: Promise<void> = (factory as ClientSessionFactory).close();
  // The broker answers nothing while its syncs wait: the close ends the connection, and the
  // sends nobody confirmed fail, none left hanging.
  storage.releaseSyncs();
  storage.autoRelease = true;
  await closing;
  const results = await Promise.all(sends);
  expect(results).toHaveLength(50);
  for (const each of results)
    if (!each.ok) expect(['OBJECT_CLOSED', 'DISCONNECTED', 'UNBLOCKED']).toContain(each.code);
});
