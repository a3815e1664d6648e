import { randomBytes } from 'node:crypto';
import type { Broker, BrokerConfiguration, ClientSession } from '../../../src';
import { CoreMessage, PacketType, type Packet, type ReattachExtension } from '../../../src/core/protocol';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { securedBrokerConfig, setting, type TestUser } from '../../support/secured-broker';
import { range, receiveCount, seqOf, sequenced, waitFor } from '../../support/test-broker';
import { QUEUE, collect, sendRange, useReattachKit, waitForLength } from '../reattach/rig';

/**
 * Issue 15's reattach takeovers, with real users: a session is reattached only by its own
 * authenticated user presenting its secret. Another user, the right user with a wrong password,
 * and an anonymous client (the default user) are all answered "not reattached", exactly as for a
 * session that does not exist, whether the victim's link is up or cut; the victim's session stays
 * where it was, keeps working, and after its own reattach gets every message once. A session of
 * a HornetQ Java client (no extension, so no secret) is not reattached by its name alone when
 * name-only-reattach-enabled is false.
 */

const ALICE: TestUser = { name: 'alice', password: 'alice-pw', roles: ['client'] };
const BOB: TestUser = { name: 'bob', password: 'bob-pw', roles: ['client'] };
const CLIENT = ['client'];

function securedReattachBroker(overrides: Partial<BrokerConfiguration> = {}): Partial<BrokerConfiguration> {
  return {
    ...securedBrokerConfig(
      [ALICE, BOB],
      [setting('#', { send: CLIENT, consume: CLIENT, createNonDurableQueue: CLIENT })],
    ),
    ...overrides,
  };
}

const kit = useReattachKit();

const NOT_REATTACHED = {
  type: PacketType.REATTACH_SESSION_RESP,
  reattached: false,
  lastConfirmedCommandId: -1,
};

/** Who tries to take the session over: every attempt presents the victim's name (and secret, when shown). */
interface Attempt {
  readonly who: string;
  readonly extension: ReattachExtension | null;
}

function attemptsOn(secret: Buffer): Attempt[] {
  return [
    {
      who: 'another user',
      extension: { reattachSecret: secret, username: BOB.name, password: BOB.password },
    },
    {
      who: 'the user with a wrong password',
      extension: { reattachSecret: secret, username: ALICE.name, password: 'guess' },
    },
    { who: 'an anonymous client', extension: { reattachSecret: secret, username: null, password: null } },
    {
      who: 'the user without the secret',
      extension: { reattachSecret: randomBytes(16), username: ALICE.name, password: ALICE.password },
    },
    { who: 'a name-only request', extension: null },
  ];
}

/** A REATTACH_SESSION from a new connection of its own, straight to the broker; its answer. */
async function rawReattach(
  broker: Broker,
  name: string,
  extension: ReattachExtension | null,
): Promise<Packet> {
  return rawReattachOn(kit.track(await RawClient.connect(broker.getPort())), name, extension);
}

function rawReattachOn(
  raw: RawClient,
  name: string,
  extension: ReattachExtension | null = null,
): Promise<Packet> {
  return raw.request(1, { type: PacketType.REATTACH_SESSION, name, lastConfirmedCommandId: -1, extension });
}

/** The session's secret, read from the client (it is never exposed on purpose). */
function secretOf(session: ClientSession): Buffer {
  return (session as unknown as { context: { identity: { reattachSecret: Buffer } } }).context.identity
    .reattachSecret;
}

function ownerOf(broker: Broker, name: string): unknown {
  const session = broker.findSession(name);
  if (session === undefined) throw new Error(`session ${name} is gone from the broker`);
  return session.owner;
}

describe('reattaching our client’s session as someone else', () => {
  test.each(['up', 'cut'])(
    'is refused, as for an unknown session, while the victim’s link is %s; the victim keeps its session and gets every message once',
    async (link) => {
      const { broker, proxy, factory, recorder } = await kit.rig({ broker: securedReattachBroker() });
      const session = await factory.createSession({ username: ALICE.name, password: ALICE.password });
      const received = collect(await session.createConsumer(QUEUE));
      session.start();
      const producer = session.createProducer(QUEUE);
      await sendRange(producer, 0, 5);
      await waitForLength(received, 5, 'messages before the attempts');
      const bob = await (
        await kit.connect(broker)
      ).createSession({ username: BOB.name, password: BOB.password });

      if (link === 'cut') {
        proxy.refuseNewConnections();
        proxy.cut();
        await proxy.waitUntil(() => proxy.connectionsRefused >= 1, 5000, 'the client to be locked out');
        // The dangerous moment: the session waits, detached, for its client to come back.
        await waitFor(
          () => broker.findSession(session.name)?.owner.linkGone === true,
          'the broker to see the cut',
        );
      }
      const owner = ownerOf(broker, session.name);
      const attempts = attemptsOn(secretOf(session));
      // The answer a session that does not exist gets: a refusal tells nothing more.
      expect(await rawReattach(broker, 'no-such-session', attempts[0]?.extension ?? null)).toEqual(
        NOT_REATTACHED,
      );
      for (const attempt of attempts) {
        expect({
          who: attempt.who,
          answer: await rawReattach(broker, session.name, attempt.extension),
        }).toEqual({
          who: attempt.who,
          answer: NOT_REATTACHED,
        });
        expect(ownerOf(broker, session.name)).toBe(owner);
      }
      // Messages for the victim while (perhaps) it is away, and its own sends made meanwhile.
      await sendRange(bob.createProducer(QUEUE), 5, 10);
      const later = sendRange(producer, 10, 13);
      if (link === 'cut') proxy.pass();
      await later;
      if (link === 'cut') {
        await recorder.ended(1);
        expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);
      } else {
        expect(recorder.trace).toEqual([]);
      }
      await waitForLength(received, 13, 'every message');
      expect(received).toEqual(range(13));
      expect(broker.listQueues().find((queue) => queue.name === QUEUE)).toMatchObject({ messagesAdded: 13 });
    },
  );
});

/** A HornetQ Java client's session, as its packets go: no extension, a confirmation window, a consumer. */
async function javaStyleSession(broker: Broker): Promise<{ raw: RawClient; name: string }> {
  const raw = kit.track(await RawClient.connect(broker.getPort()));
  const name = 'java-client-session';
  const created = await raw.createSession(RAW_SESSION_CHANNEL, {
    name,
    username: ALICE.name,
    password: ALICE.password,
    windowSize: 1024 * 1024,
  });
  expect(created.type).toBe(PacketType.CREATESESSION_RESP);
  raw.consumeWithoutFlowControl(QUEUE);
  return { raw, name };
}

async function sendFromBob(broker: Broker, from: number, to: number): Promise<void> {
  const bob = await (await kit.connect(broker)).createSession({ username: BOB.name, password: BOB.password });
  await sendRange(bob.createProducer(QUEUE), from, to, { durable: true });
}

describe('a HornetQ Java client’s session (no reattach secret)', () => {
  test('is not reattached by its name alone when name-only-reattach-enabled is false; it keeps working and gets every message once', async () => {
    const { broker } = await kit.rig({ broker: securedReattachBroker({ nameOnlyReattachEnabled: false }) });
    const victim = await javaStyleSession(broker);
    await sendFromBob(broker, 0, 3);
    await waitFor(() => victim.raw.deliveries === 3, 'the first deliveries');

    for (const extension of [
      null,
      { reattachSecret: randomBytes(16), username: ALICE.name, password: ALICE.password },
    ]) {
      expect(await rawReattach(broker, victim.name, extension)).toEqual(NOT_REATTACHED);
    }

    await sendFromBob(broker, 3, 6);
    // Its own session still sends: the answer to a blocking send comes (among deliveries).
    const own = sequenced(6);
    own.address = QUEUE;
    victim.raw.send(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND,
      message: own,
      requiresResponse: true,
    });
    await waitFor(() => victim.raw.has(PacketType.NULL_RESPONSE), 'the answer to the victim’s send');
    await waitFor(() => victim.raw.deliveries === 7, 'every delivery');
    const seqs = victim.raw.frames
      .map((frame) => frame.packet)
      .filter((packet) => packet.type === PacketType.SESS_RECEIVE_MSG)
      .map((packet) => seqOf((packet as { message: CoreMessage }).message));
    expect(seqs).toEqual(range(7));
  });

  test('is taken over by its name alone when name-only-reattach-enabled is true (HornetQ’s rule, why the setting exists)', async () => {
    const { broker } = await kit.rig({ broker: securedReattachBroker() });
    const victim = await javaStyleSession(broker);
    const owner = ownerOf(broker, victim.name);
    expect(await rawReattach(broker, victim.name, null)).toMatchObject({ reattached: true });
    expect(ownerOf(broker, victim.name)).not.toBe(owner);
  });
});

describe('creating a session under the name of another user’s session', () => {
  test('is refused for our client’s session, with or without its secret, and the session stays', async () => {
    const { broker, factory } = await kit.rig({ broker: securedReattachBroker() });
    const session = await factory.createSession({ username: ALICE.name, password: ALICE.password });
    const owner = ownerOf(broker, session.name);
    for (const [user, secret] of [
      [BOB, secretOf(session)],
      [ALICE, randomBytes(16)],
    ] as const) {
      const raw = kit.track(await RawClient.connect(broker.getPort()));
      const answer = await raw.createSession(RAW_SESSION_CHANNEL, {
        name: session.name,
        username: user.name,
        password: user.password,
        reattachSecret: secret,
      });
      expect(answer).toMatchObject({ type: PacketType.EXCEPTION, code: 'SESSION_CREATION_REJECTED' });
      expect(ownerOf(broker, session.name)).toBe(owner);
    }
    await session.createProducer(QUEUE).send(sequenced(0));
  });

  test('is refused for a Java-style session whose link is gone, so that another user cannot close it before its client reattaches', async () => {
    const { broker } = await kit.rig({ broker: securedReattachBroker() });
    const victim = await javaStyleSession(broker);
    await victim.raw.close();
    await waitFor(
      () => broker.findSession(victim.name)?.owner.linkGone === true,
      'the broker to see the link gone',
    );

    const mallory = kit.track(await RawClient.connect(broker.getPort()));
    const answer = await mallory.createSession(RAW_SESSION_CHANNEL, {
      name: victim.name,
      username: BOB.name,
      password: BOB.password,
      windowSize: 1024 * 1024,
    });
    expect(answer).toMatchObject({ type: PacketType.EXCEPTION, code: 'SESSION_CREATION_REJECTED' });
    expect(broker.findSession(victim.name)?.isClosed).toBe(false);

    // Its own client comes back (HornetQ's name-only reattach) and finds it.
    const back = kit.track(await RawClient.connect(broker.getPort()));
    expect(await rawReattachOn(back, victim.name)).toMatchObject({ reattached: true });
  });
});

describe('a temporary queue across its client’s reattach', () => {
  test('stays its client’s through the new connection, and still nobody else’s', async () => {
    const { broker, proxy, factory, recorder } = await kit.rig({
      broker: securedReattachBroker(),
    });
    const session = await factory.createSession({ username: ALICE.name, password: ALICE.password });
    await session.createQueue('jms.tempqueue.alice', 'jms.tempqueue.alice', {
      durable: false,
      temporary: true,
    });
    proxy.cut();
    await recorder.ended(1);
    expect(recorder.trace).toEqual(['FAILURE_DETECTED', 'FAILOVER_COMPLETED:true']);

    const bob = await (
      await kit.connect(broker)
    ).createSession({ username: BOB.name, password: BOB.password });
    const error: unknown = await bob.createConsumer('jms.tempqueue.alice').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'SECURITY_EXCEPTION' });
    await bob.createProducer('jms.tempqueue.alice').send(sequenced(0));
    const consumer = await session.createConsumer('jms.tempqueue.alice');
    session.start();
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
  });
});
