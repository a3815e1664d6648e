import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { Packet, QueueQuery, ResponsePacket } from '../../../src/core/protocol/packets';
import type { Channel, ChannelOptions } from '../../../src/core/remoting/channel';
import { InVmTransport } from '../../../src/core/remoting/in-vm-transport';
import { silentLogger } from '../../../src/core/remoting/logger';
import { RemotingConnection } from '../../../src/core/remoting/remoting-connection';

/**
 * A channel whose peer's count of its commands stops being its own (issue 25): HornetQ and Artemis
 * answer a reattach with the last command they stored, execute a replayed command they were still
 * storing a second time, and from then on count one command more than was sent. Nothing such a
 * peer confirms may drop a frame, no answer may go to the wrong call, and the channel says the
 * numbering is broken so that the session is created again.
 */

const CHANNEL = 10;
const OPTIONS: ChannelOptions = { confirmationWindowSize: 1024 * 1024, callTimeoutMs: 5000 };

interface Link {
  clientConn: RemotingConnection;
  serverConn: RemotingConnection;
  client: Channel;
  server: Channel;
  /** Requests the server channel was given, in order. */
  received: Packet[];
}

const links: Link[] = [];

function link(clientOptions: ChannelOptions = OPTIONS): Link {
  const [clientTransport, serverTransport] = InVmTransport.pair('numbering-test');
  const clientConn = new RemotingConnection(clientTransport, { logger: silentLogger });
  const serverConn = new RemotingConnection(serverTransport, { logger: silentLogger });
  const client = clientConn.createChannel(CHANNEL, clientOptions);
  const server = serverConn.createChannel(CHANNEL, OPTIONS);
  const received: Packet[] = [];
  server.setHandler((packet) => received.push(packet));
  const created = { clientConn, serverConn, client, server, received };
  links.push(created);
  return created;
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function until(condition: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await tick();
  }
  throw new Error('condition not met');
}

function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown } {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => {
      state.settled = true;
      state.value = value;
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

function query(name: string): QueueQuery {
  return { type: PacketType.SESS_QUEUEQUERY, queueName: name };
}

function answer(name: string): ResponsePacket {
  return {
    type: PacketType.SESS_QUEUEQUERY_RESP,
    exists: true,
    durable: false,
    temporary: false,
    consumerCount: 0,
    messageCount: 0,
    filter: null,
    address: name,
    name: null,
  };
}

const NULL_RESPONSE: ResponsePacket = { type: PacketType.NULL_RESPONSE };
const BARRIER: Packet = { type: PacketType.SESS_BINDINGQUERY, address: 'check' };
const BARRIER_ANSWER: ResponsePacket = {
  type: PacketType.SESS_BINDINGQUERY_RESP,
  exists: false,
  queueNames: [],
};
const isBarrierAnswer = (response: ResponsePacket): boolean =>
  response.type === PacketType.SESS_BINDINGQUERY_RESP;

function addressOf(response: unknown): string {
  return (response as { address: string }).address;
}

function codeOf(error: unknown): string | null {
  return HornetQException.is(error) ? error.code : null;
}

afterEach(async () => {
  for (const { clientConn, serverConn, client, server } of links.splice(0)) {
    client.close();
    server.close();
    clientConn.close();
    serverConn.close();
  }
  await tick();
  await tick();
});

describe('Channel numbering: a peer that claims more commands than were sent', () => {
  it('a PACKETS_CONFIRMED beyond the last command sent drops nothing and fails the connection, saying why', async () => {
    const { clientConn, serverConn, client, received } = link();
    const failures: HornetQException[] = [];
    clientConn.addFailureListener((error) => failures.push(error));
    for (let i = 0; i < 3; i++) client.send({ type: PacketType.SESS_START });
    await until(() => received.length === 3);
    const held = client.resendBufferBytes;
    // Commands 0..2 were sent; the peer confirms 3 (it executed one of them twice).
    serverConn.write(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 3 });
    await until(() => failures.length === 1);
    expect(client.resendBufferBytes).toBe(held);
    expect(client.numberingBroken?.message).toMatch(
      /confirmed command 3, but this side has sent only commands 0 to 2/,
    );
    expect(failures[0]).toBe(client.numberingBroken);
    expect(clientConn.closed).toBe(true);
  });

  it('a confirmation within what was sent is taken as before', async () => {
    const { serverConn, client, received } = link();
    for (let i = 0; i < 3; i++) client.send({ type: PacketType.SESS_START });
    await until(() => received.length === 3);
    serverConn.write(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 2 });
    await until(() => client.resendBufferBytes === 0);
    expect(client.numberingBroken).toBeNull();
  });

  it('a reattach answer beyond the last command sent replays nothing and keeps the channel held', async () => {
    const { client, received } = link();
    for (let i = 0; i < 2; i++) client.send({ type: PacketType.SESS_START });
    await until(() => received.length === 2);
    client.hold();
    expect(client.replay(2)).toBeNull();
    expect(client.numberingBroken?.message).toMatch(/reattach answer names command 2/);
    client.send({ type: PacketType.SESS_START });
    for (let i = 0; i < 10; i++) await tick();
    expect(received).toHaveLength(2);
  });

  it('a reattach answer older than what the peer had confirmed (frames already gone) is broken too', async () => {
    const { serverConn, client, received } = link();
    for (let i = 0; i < 4; i++) client.send({ type: PacketType.SESS_START });
    await until(() => received.length === 4);
    serverConn.write(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 2 });
    await until(() => client.resendBufferBytes > 0 && client.accountsFor(2) && !client.accountsFor(1));
    client.hold();
    // The peer now says it has only command 0: commands 1 and 2 cannot be sent again.
    expect(client.replay(0)).toBeNull();
    expect(client.numberingBroken).not.toBeNull();
    // Its last confirmation is still good: it replays command 3 alone.
    const again = link();
    for (let i = 0; i < 4; i++) again.client.send({ type: PacketType.SESS_START });
    await until(() => again.received.length === 4);
    again.serverConn.write(CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 2 });
    await until(() => again.client.accountsFor(2) && !again.client.accountsFor(1));
    again.client.hold();
    expect(again.client.replay(2)).toBe(1);
    expect(again.client.numberingBroken).toBeNull();
  });
});

describe('Channel numbering: calls at a reattach', () => {
  it('a call the reattach answer confirmed and whose answer was lost settles as unknown; the next answer goes to its own call', async () => {
    const { client, server, received } = link();
    const calls = ['a', 'b', 'c'].map((name) => track(client.sendBlocking(query(name))));
    await until(() => received.length === 3);
    server.send(answer('a'));
    await until(() => calls[0]?.settled === true);
    // The link fails; the peer says it handled commands 0 and 1: b's answer will never come.
    client.hold();
    expect(client.replay(1)).toBe(1);
    await until(() => calls[1]?.settled === true);
    expect(codeOf(calls[1]?.error)).toBe('CALL_OUTCOME_UNKNOWN');
    expect(String(calls[1]?.error)).toMatch(/confirmed it \(command 1\)/);
    server.send(answer('c'));
    await until(() => calls[2]?.settled === true);
    expect(addressOf(calls[2]?.value)).toBe('c');
    expect(client.outstandingCalls).toBe(0);
  });

  it('no tombstone of a call the reattach answer confirmed survives the reattach', async () => {
    const { client, server, received } = link({ ...OPTIONS, callTimeoutMs: 30 });
    const first = track(client.sendBlocking(query('a')));
    // The call times out after 30 ms of real time: turns of the event loop alone may all pass sooner.
    await new Promise((resolve) => setTimeout(resolve, 40));
    await until(() => first.settled, 10_000);
    expect(codeOf(first.error)).toBe('CONNECTION_TIMEDOUT');
    expect(client.unansweredTimedOutCalls).toBe(1);
    client.hold();
    expect(client.replay(0)).toBe(0);
    expect(client.outstandingCalls).toBe(0);
    const second = client.sendBlocking(query('b'), 5000);
    await until(() => received.length === 2);
    server.send(answer('b'));
    expect(addressOf(await second)).toBe('b');
  });

  it('a tombstone of a call to be replayed stays and takes its own late answer', async () => {
    const { client, server, received } = link({ ...OPTIONS, callTimeoutMs: 30 });
    const first = track(client.sendBlocking(query('a')));
    await until(() => first.settled, 10_000);
    client.hold();
    expect(client.replay(-1)).toBe(1);
    const second = client.sendBlocking(query('b'), 5000);
    await until(() => received.length === 3);
    server.send(answer('a'));
    server.send(answer('b'));
    expect(addressOf(await second)).toBe('b');
  });
});

describe('Channel numbering: answers in flight at a reattach to a broker not ours', () => {
  it('an answer that comes after the reattach answer marks its command executed: it is not replayed', async () => {
    const { client, server, received } = link();
    const calls = ['a', 'b'].map((name) => track(client.sendBlocking(query(name))));
    await until(() => received.length === 2);
    client.hold();
    // The broker answered the reattach with -1 (nothing stored yet), then stores a and answers it.
    const waited = client.awaitAnswersInFlight(5000);
    server.send(answer('a'));
    await until(() => calls[0]?.settled === true);
    server.send(answer('b'));
    await waited;
    await until(() => calls.every((call) => call.settled));
    expect(calls.map((call) => addressOf(call.value))).toEqual(['a', 'b']);
    expect(client.replay(-1, true)).toBe(0);
    for (let i = 0; i < 10; i++) await tick();
    expect(received).toHaveLength(2);
  });

  it('a request lost with the link is never answered: the wait ends at its bound and the request is replayed', async () => {
    const { client, server, received } = link();
    const call = track(client.sendBlocking(query('a')));
    await until(() => received.length === 1);
    received.length = 0;
    client.hold();
    const started = Date.now();
    await client.awaitAnswersInFlight(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(client.replay(-1, true)).toBe(1);
    await until(() => received.length === 1);
    server.send(answer('a'));
    await until(() => call.settled);
    expect(addressOf(call.value)).toBe('a');
  });

  it('our own broker: answers do not count as confirmations (its reattach answer already covers them)', async () => {
    const { client, server, received } = link();
    const call = client.sendBlocking(query('a'));
    await until(() => received.length === 1);
    server.send(answer('a'));
    await call;
    client.hold();
    expect(client.replay(-1)).toBe(1);
  });
});

describe('Channel numbering: checking the answers after a replay', () => {
  it('one answer per call: each call gets its own, the count is 0 and the numbering stands', async () => {
    const { client, server, received } = link();
    const calls = ['a', 'b'].map((name) => client.sendBlocking(query(name)));
    const check = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 3);
    server.send(answer('a'));
    server.send(answer('b'));
    server.send(BARRIER_ANSWER);
    expect(await check).toBe(0);
    expect((await Promise.all(calls)).map(addressOf)).toEqual(['a', 'b']);
    expect(client.numberingBroken).toBeNull();
    expect(client.outstandingCalls).toBe(0);
  });

  it('an answer too many (a replayed command executed twice): the calls take the last answers and the numbering is broken', async () => {
    const { client, server, received } = link();
    const calls = ['a', 'b'].map((name) => track(client.sendBlocking(query(name))));
    const check = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 3);
    // The first execution's answer of a command the peer was still storing at the reattach.
    server.send(NULL_RESPONSE);
    server.send(answer('a'));
    server.send(answer('b'));
    // Nothing is settled before the barrier's answer.
    for (let i = 0; i < 10; i++) await tick();
    expect(calls.map((call) => call.settled)).toEqual([false, false]);
    server.send(BARRIER_ANSWER);
    expect(await check).toBe(1);
    await until(() => calls.every((call) => call.settled));
    expect(calls.map((call) => addressOf(call.value))).toEqual(['a', 'b']);
    expect(client.numberingBroken?.message).toMatch(/3 answers came for 2 calls/);
  });

  it('a peer that goes on answering while the barrier is out fails the connection: the answers held are bounded', async () => {
    const { clientConn, client, server, received } = link();
    const failures: HornetQException[] = [];
    clientConn.addFailureListener((error) => failures.push(error));
    const calls = ['a', 'b'].map((name) => track(client.sendBlocking(query(name))));
    const check = track(client.countAnswersUpTo(BARRIER, isBarrierAnswer));
    await until(() => received.length === 3);
    // Three calls in line (two and the barrier) could take six answers if each ran twice; not more.
    for (let i = 0; i < 100; i++) server.send(NULL_RESPONSE);
    await until(() => failures.length === 1);
    expect(failures[0]).toBe(client.numberingBroken);
    expect(client.numberingBroken?.message).toMatch(/7 answers came after a reattach for 3 calls in line/);
    expect(clientConn.closed).toBe(true);
    client.returnBlocking(failures[0]!);
    await until(() => check.settled && calls.every((call) => call.settled));
  });

  it('an answer too few: the first call settles as unknown, the others get theirs', async () => {
    const { client, server, received } = link();
    const calls = ['a', 'b'].map((name) => track(client.sendBlocking(query(name))));
    const check = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 3);
    server.send(answer('b'));
    server.send(BARRIER_ANSWER);
    expect(await check).toBe(-1);
    await until(() => calls.every((call) => call.settled));
    expect(codeOf(calls[0]?.error)).toBe('CALL_OUTCOME_UNKNOWN');
    expect(addressOf(calls[1]?.value)).toBe('b');
    expect(client.numberingBroken).not.toBeNull();
  });

  it('a check cut off by its link after an answer came: the answer stays held, the call waits, and the next check matches it', async () => {
    const { client, server, received } = link();
    const call = track(client.sendBlocking(query('a')));
    const check = track(client.countAnswersUpTo(BARRIER, isBarrierAnswer));
    await until(() => received.length === 2);
    server.send(answer('a'));
    for (let i = 0; i < 10; i++) await tick();
    client.cancelAnswerCount(new HornetQException('DISCONNECTED', 'the link went'));
    await until(() => check.settled);
    expect(codeOf(check.error)).toBe('DISCONNECTED');
    // The answer may be a's, or a second execution's with a's still to come: not known yet.
    expect(call.settled).toBe(false);
    expect(client.answersHeld).toBe(true);
    expect(client.numberingBroken).toBeNull();
    // After the next reattach the peer owes the first barrier's answer, then the second's.
    const next = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 3);
    server.send(BARRIER_ANSWER);
    server.send(BARRIER_ANSWER);
    expect(await next).toBe(0);
    await until(() => call.settled);
    expect(addressOf(call.value)).toBe('a');
    expect(client.answersHeld).toBe(false);
    expect(client.outstandingCalls).toBe(0);
    // Later answers are matched as usual again.
    const later = client.sendBlocking(query('c'));
    await until(() => received.length === 4);
    server.send(answer('c'));
    expect(addressOf(await later)).toBe('c');
  });

  it('answers held across a failure go when the session starts afresh (reset)', async () => {
    const { client, server, received } = link();
    const call = track(client.sendBlocking(query('a')));
    const check = track(client.countAnswersUpTo(BARRIER, isBarrierAnswer));
    await until(() => received.length === 2);
    server.send(answer('a'));
    for (let i = 0; i < 10; i++) await tick();
    client.cancelAnswerCount(new HornetQException('DISCONNECTED', 'the link went'));
    await until(() => check.settled);
    client.reset(new HornetQException('UNBLOCKED', 're-created'));
    await until(() => call.settled);
    expect(codeOf(call.error)).toBe('UNBLOCKED');
    expect(client.answersHeld).toBe(false);
  });

  it('a check cut off before any answer came: the calls go on waiting, and the next check owes the old barrier its answer', async () => {
    const { client, server, received } = link();
    const call = track(client.sendBlocking(query('a')));
    const first = track(client.countAnswersUpTo(BARRIER, isBarrierAnswer));
    await until(() => received.length === 2);
    client.cancelAnswerCount(new HornetQException('DISCONNECTED', 'the link went'));
    await until(() => first.settled);
    expect(codeOf(first.error)).toBe('DISCONNECTED');
    expect(call.settled).toBe(false);
    expect(client.numberingBroken).toBeNull();
    expect(client.answersHeld).toBe(true);
    // After the next reattach: a, the old barrier and the new one are answered in order.
    const second = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 3);
    server.send(answer('a'));
    server.send(BARRIER_ANSWER);
    server.send(BARRIER_ANSWER);
    expect(await second).toBe(0);
    await until(() => call.settled);
    expect(addressOf(call.value)).toBe('a');
    expect(client.numberingBroken).toBeNull();
    expect(client.outstandingCalls).toBe(0);
  });

  it('a call of the barrier’s own kind waiting before it takes its own answer, not the barrier’s', async () => {
    const { client, server, received } = link();
    const own = client.sendBlocking(BARRIER);
    const check = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    await until(() => received.length === 2);
    server.send({ ...BARRIER_ANSWER, exists: true, queueNames: ['mine'] } as ResponsePacket);
    server.send(BARRIER_ANSWER);
    expect(await check).toBe(0);
    expect(await own).toMatchObject({ queueNames: ['mine'] });
  });

  it('calls made after the barrier are answered after it, as usual', async () => {
    const { client, server, received } = link();
    const check = client.countAnswersUpTo(BARRIER, isBarrierAnswer);
    const after = client.sendBlocking(query('z'));
    await until(() => received.length === 2);
    server.send(BARRIER_ANSWER);
    server.send(answer('z'));
    expect(await check).toBe(0);
    expect(addressOf(await after)).toBe('z');
  });
});

describe('Channel numbering: a channel renumbered beside its old one', () => {
  it('takes a new id on its connection; late packets for the old id are dropped; frames encoded before go out under the new id', async () => {
    const { clientConn, serverConn, client } = link();
    const early = client.encode({ type: PacketType.SESS_START });
    client.renumber(clientConn.generateChannelId());
    expect(client.id).not.toBe(CHANNEL);
    expect(clientConn.getChannel(client.id)).toBe(client);
    expect(clientConn.getChannel(CHANNEL)).toBeUndefined();
    const failures: unknown[] = [];
    clientConn.addFailureListener((error) => failures.push(error));
    // The old broker session answers its close on the old id: dropped, the link stays up.
    serverConn.write(CHANNEL, NULL_RESPONSE);
    const onNew: Packet[] = [];
    const renamed = serverConn.createChannel(client.id, OPTIONS);
    renamed.setHandler((packet) => onNew.push(packet));
    client.reset(new HornetQException('UNBLOCKED', 'reset'));
    client.send({ type: PacketType.SESS_START }, early);
    await until(() => onNew.length === 1);
    expect(failures).toEqual([]);
    expect(onNew[0]?.type).toBe(PacketType.SESS_START);
    renamed.close();
  });
});
