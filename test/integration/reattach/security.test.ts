import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Broker } from '../../../src';
import {
  FrameDecoder,
  PacketType,
  decodeFrame,
  encodePacket,
  type Packet,
  type ReattachSessionResponse,
} from '../../../src/core/protocol';
import { range, receiveCount, seqOf, sequenced } from '../../support/test-broker';
import { QUEUE, sendRange, useReattachKit } from './rig';

/**
 * Issue 3 item 6: reattach is not a takeover. Knowing a session's name is not enough: a session
 * our client created (with our extension) reattaches only with the secret it chose and from the
 * user that created it; a refusal reads exactly like "no such session", and it neither closes nor
 * disturbs the real session. (A plain HornetQ client's session reattaches by name, HornetQ's rule:
 * see test/server for that.)
 */

const kit = useReattachKit();

/** A raw TCP client that speaks just enough of the protocol to ask for a reattach. */
async function rawReattach(
  broker: Broker,
  fields: { name: string; secret: Buffer | null; username?: string | null },
): Promise<ReattachSessionResponse> {
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port: broker.getPort() }, () => resolve(s));
    s.once('error', reject);
  });
  kit.track({ close: () => socket.destroy() });
  const request: Packet = {
    type: PacketType.REATTACH_SESSION,
    name: fields.name,
    lastConfirmedCommandId: -1,
    extension:
      fields.secret === null
        ? null
        : { reattachSecret: fields.secret, username: fields.username ?? null, password: null },
  };
  const answer = new Promise<Packet>((resolve, reject) => {
    const decoder = new FrameDecoder();
    socket.on('data', (chunk: Buffer) => decoder.feed(chunk, (frame) => resolve(decodeFrame(frame).packet)));
    socket.once('close', () => reject(new Error('the broker closed the raw connection without answering')));
  });
  socket.write(encodePacket(1, request));
  const packet = await answer;
  socket.destroy();
  if (packet.type !== PacketType.REATTACH_SESSION_RESP) throw new Error(`unexpected answer ${packet.type}`);
  return packet;
}

/** The session's secret, read from the client (it is never exposed on purpose). */
function secretOf(session: object): Buffer {
  return (session as { context: { identity: { reattachSecret: Buffer } } }).context.identity.reattachSecret;
}

test('the right session name with a wrong secret, or with none, is refused like an unknown session, and the real session keeps working', async () => {
  const { broker, factory } = await kit.rig();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 5);
  const ownerBefore = (broker.findSession(session.name) as { owner: unknown }).owner;

  const wrongSecret = await rawReattach(broker, { name: session.name, secret: randomBytes(16) });
  const unknownName = await rawReattach(broker, { name: randomUUID(), secret: randomBytes(16) });
  const nameOnly = await rawReattach(broker, { name: session.name, secret: null });
  expect(wrongSecret).toEqual({ ...unknownName });
  expect(wrongSecret).toMatchObject({ reattached: false, lastConfirmedCommandId: -1 });
  expect(nameOnly).toEqual(wrongSecret);

  // Untouched: still on its own connection, still open, still in order.
  expect((broker.findSession(session.name) as { owner: unknown }).owner).toBe(ownerBefore);
  expect(broker.getSessionCount()).toBe(1);
  await sendRange(producer, 5, 10);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 10)).map(seqOf)).toEqual(range(10));
});

test('the right name and secret from another user is refused', async () => {
  const { broker, factory } = await kit.rig();
  const session = await factory.createSession({ username: 'alice', password: 'secret' });
  const answer = await rawReattach(broker, {
    name: session.name,
    secret: secretOf(session),
    username: 'mallory',
  });
  expect(answer).toMatchObject({ reattached: false, lastConfirmedCommandId: -1 });
  expect(broker.findSession(session.name)).toBeDefined();
});

test('a wrong-secret attempt while the real client is disconnected does not steal the session: the client still reattaches', async () => {
  const { broker, proxy, factory, recorder } = await kit.rig();
  const session = await factory.createSession();
  const producer = session.createProducer(QUEUE);
  await sendRange(producer, 0, 5);
  proxy.refuseNewConnections();
  proxy.cut();
  await proxy.waitUntil(() => proxy.connectionsRefused >= 1, 5000, 'the client to be locked out');
  const answer = await rawReattach(broker, { name: session.name, secret: randomBytes(16) });
  expect(answer.reattached).toBe(false);
  expect(broker.findSession(session.name)).toBeDefined();
  // Sends made during the failover wait for it to end.
  const later = sendRange(producer, 5, 10);
  proxy.pass();
  await later;
  await recorder.ended(1);
  expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
  const consumer = await session.createConsumer(QUEUE);
  session.start();
  expect((await receiveCount(consumer, 10)).map(seqOf)).toEqual(range(10));
  await session.createProducer(QUEUE).send(sequenced(10));
  expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([10]);
});
