import { CoreMessage } from '../../../src/core/protocol/core-message';
import { HornetQException } from '../../../src/core/protocol/hornetq-exception';
import { encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType, packetTypeName } from '../../../src/core/protocol/packet-type';
import type { Packet, QueueQuery, ResponsePacket } from '../../../src/core/protocol/packets';
import {
  MAX_UNANSWERED_TIMED_OUT_CALLS,
  MAX_UNCONFIRMED_COMMANDS,
  type Channel,
  type ChannelOptions,
} from '../../../src/core/remoting/channel';
import { InVmTransport } from '../../../src/core/remoting/in-vm-transport';
import { silentLogger } from '../../../src/core/remoting/logger';
import { RemotingConnection } from '../../../src/core/remoting/remoting-connection';

const CHANNEL = 10;
const START: Packet = { type: PacketType.SESS_START };
/** Bytes of a SESS_START frame: what one confirmable command counts for in windows and buffers. */
const START_BYTES = encodePacket(CHANNEL, START).length;

interface Received {
  packet: Packet;
  commandId: number;
  size: number;
}

interface Link {
  clientConn: RemotingConnection;
  serverConn: RemotingConnection;
  client: Channel;
  server: Channel;
  /** What the server channel's handler was given, in order. */
  serverReceived: Received[];
}

const links: Link[] = [];

function link(clientOptions: ChannelOptions, serverOptions: ChannelOptions = clientOptions): Link {
  const [clientTransport, serverTransport] = InVmTransport.pair('channel-test');
  const clientConn = new RemotingConnection(clientTransport, { logger: silentLogger });
  const serverConn = new RemotingConnection(serverTransport, { logger: silentLogger });
  const client = clientConn.createChannel(CHANNEL, clientOptions);
  const server = serverConn.createChannel(CHANNEL, serverOptions);
  const serverReceived: Received[] = [];
  server.setHandler((packet, commandId, size) => serverReceived.push({ packet, commandId, size }));
  const created = { clientConn, serverConn, client, server, serverReceived };
  links.push(created);
  return created;
}

/** One turn of the event loop: the in-VM transport delivers on setImmediate. */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Polls `condition` once per turn of the event loop, failing after `turns`. */
async function until(condition: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await tick();
  }
  throw new Error('condition not met');
}

/** Settled state of a promise without waiting for it. */
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

function confirmationsWritten(spy: jest.SpyInstance): number[] {
  return spy.mock.calls
    .map((call) => call[1] as Packet)
    .filter((packet) => packet.type === PacketType.PACKETS_CONFIRMED)
    .map((packet) => (packet as { commandId: number }).commandId);
}

function queueQuery(queueName: string): QueueQuery {
  return { type: PacketType.SESS_QUEUEQUERY, queueName };
}

function queryResponse(address: string): ResponsePacket {
  return {
    type: PacketType.SESS_QUEUEQUERY_RESP,
    exists: true,
    durable: false,
    temporary: false,
    consumerCount: 0,
    messageCount: 0,
    filter: null,
    address,
    name: null,
  };
}

function createSession(name: string): Packet {
  return {
    type: PacketType.CREATESESSION,
    name,
    sessionChannelId: 11,
    version: 124,
    username: null,
    password: null,
    minLargeMessageSize: 100 * 1024,
    xa: false,
    autoCommitSends: true,
    autoCommitAcks: true,
    windowSize: -1,
    preAcknowledge: false,
    defaultAddress: null,
    extension: null,
  };
}

function createSessionResponse(serverVersion: number): Packet {
  return { type: PacketType.CREATESESSION_RESP, serverVersion, extension: null };
}

afterEach(async () => {
  jest.useRealTimers();
  for (const { clientConn, serverConn, client, server } of links.splice(0)) {
    // Closing the channels ends their call timers (calls still waiting are rejected).
    client.close();
    server.close();
    clientConn.close();
    serverConn.close();
  }
  // Let the transports' close notifications run before the test ends.
  await tick();
  await tick();
});

describe('Channel command counting', () => {
  it('numbers confirmable packets 0, 1, 2 on the sender and the receiver', async () => {
    const { client, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    expect(client.send(START)).toBe(0);
    expect(client.send({ type: PacketType.SESS_STOP })).toBe(1);
    expect(client.send({ type: PacketType.SESS_FLOWTOKEN, consumerId: 3, credits: 100 })).toBe(2);
    await until(() => serverReceived.length === 3);
    expect(serverReceived.map((r) => [r.packet.type, r.commandId])).toEqual([
      [PacketType.SESS_START, 0],
      [PacketType.SESS_STOP, 1],
      [PacketType.SESS_FLOWTOKEN, 2],
    ]);
    expect(serverReceived[0]?.size).toBe(START_BYTES);
  });

  it('does not count packets that need no confirmation', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    expect(client.send({ type: PacketType.DISCONNECT, nodeId: null })).toBe(-1);
    expect(client.send(START)).toBe(0);
    await until(() => serverReceived.length === 2);
    expect(serverReceived.map((r) => r.commandId)).toEqual([-1, 0]);
    expect(client.resendBufferBytes).toBe(START_BYTES);
    server.confirm(-1, 100);
    expect(server.lastConfirmedCommandId).toBe(-1);
  });

  it('decides counting per packet: ADD_METADATA2 counts only with its flag, ADD_METADATA never', async () => {
    const { client, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    const metadata = (requiresConfirmation: boolean): Packet => ({
      type: PacketType.SESS_ADD_METADATA2,
      key: 'jms-session',
      data: '',
      requiresConfirmation,
    });
    expect(client.send(metadata(false))).toBe(-1);
    expect(client.send(START)).toBe(0);
    expect(client.send(metadata(true))).toBe(1);
    expect(client.send({ type: PacketType.SESS_ADD_METADATA, key: 'k', data: 'v' })).toBe(-1);
    expect(
      client.send({
        type: PacketType.SESS_UNIQUE_ADD_METADATA,
        key: 'jms-client-id',
        data: 'c',
        requiresConfirmation: true,
      }),
    ).toBe(2);
    await until(() => serverReceived.length === 5);
    expect(serverReceived.map((r) => r.commandId)).toEqual([-1, 0, 1, -1, 2]);
    // Only the counted ones are held for replay.
    expect(client.resendBufferBytes).toBe(
      START_BYTES + (serverReceived[2]?.size ?? 0) + (serverReceived[4]?.size ?? 0),
    );
  });

  it('the receiver reports the last command it confirmed, not the last it received', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    for (let i = 0; i < 3; i++) client.send(START);
    await until(() => serverReceived.length === 3);
    expect(server.lastConfirmedCommandId).toBe(-1);
    server.confirm(0, START_BYTES);
    server.confirm(1, START_BYTES);
    expect(server.lastConfirmedCommandId).toBe(1);
    server.confirm(2, START_BYTES);
    expect(server.lastConfirmedCommandId).toBe(2);
  });
});

describe('Channel counting of packets whose handler throws', () => {
  it('counts a packet once its handler returned: the same packet again gets the same id', () => {
    const { server } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    const seen: number[] = [];
    let failOnce = true;
    server.setHandler((_packet, commandId, size) => {
      seen.push(commandId);
      if (failOnce) {
        failOnce = false;
        throw new Error('cannot take it');
      }
      server.confirm(commandId, size);
    });
    // What a replay after a reattach does: the peer sends the packet again.
    expect(() => server.handlePacket(START, START_BYTES)).toThrow('cannot take it');
    server.handlePacket(START, START_BYTES);
    server.handlePacket(START, START_BYTES);
    expect(seen).toEqual([0, 0, 1]);
    expect(server.lastConfirmedCommandId).toBe(1);
  });

  it('a packet its handler confirmed counts even if the handler threw after', () => {
    const { server } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    const seen: number[] = [];
    server.setHandler((_packet, commandId, size) => {
      seen.push(commandId);
      server.confirm(commandId, size);
      if (commandId === 0) throw new Error('after confirming');
    });
    expect(() => server.handlePacket(START, START_BYTES)).toThrow('after confirming');
    server.handlePacket(START, START_BYTES);
    expect(seen).toEqual([0, 1]);
  });
});

describe('Channel frames', () => {
  it('encodes each channel from a slab of its own, so a resend buffer keeps no other channel’s slabs', () => {
    const { clientConn, client } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    const other = clientConn.createChannel(CHANNEL + 1, {
      confirmationWindowSize: 1024,
      callTimeoutMs: 1000,
    });
    const written = jest.spyOn(clientConn, 'writeFrame');
    for (let i = 0; i < 3; i++) {
      client.send(START);
      other.send(START);
    }
    const frames = written.mock.calls.map((call) => call[0]);
    const ours = frames.filter((_, i) => i % 2 === 0);
    const theirs = frames.filter((_, i) => i % 2 === 1);
    expect(new Set(ours.map((frame) => frame.buffer)).size).toBe(1);
    expect(ours[0]?.buffer).not.toBe(theirs[0]?.buffer);
    // Side by side within the channel: one run for the transport, one contiguous range to hold.
    expect(ours[1]?.byteOffset).toBe((ours[0]?.byteOffset ?? 0) + START_BYTES);
  });
});

describe('Channel confirmations', () => {
  it('sends PacketsConfirmed when the confirmed bytes reach the window, not before', async () => {
    const { client, server, serverConn, serverReceived } = link({
      confirmationWindowSize: 3 * START_BYTES,
      callTimeoutMs: 1000,
    });
    const writes = jest.spyOn(serverConn, 'write');
    for (let i = 0; i < 4; i++) client.send(START);
    expect(client.resendBufferBytes).toBe(4 * START_BYTES);
    await until(() => serverReceived.length === 4);

    server.confirm(0, START_BYTES);
    server.confirm(1, START_BYTES);
    await tick();
    await tick();
    expect(confirmationsWritten(writes)).toEqual([]);
    expect(client.resendBufferBytes).toBe(4 * START_BYTES);

    server.confirm(2, START_BYTES);
    expect(confirmationsWritten(writes)).toEqual([2]);
    // The peer's confirmation releases what it covers from the sender's resend buffer.
    await until(() => client.resendBufferBytes === START_BYTES);
    expect(client.resendBufferPeakBytes).toBe(4 * START_BYTES);

    // The window starts again from zero after each confirmation.
    server.confirm(3, START_BYTES);
    expect(confirmationsWritten(writes)).toEqual([2]);
  });

  it('confirms every MAX_UNCONFIRMED_COMMANDS packets even when they add up to less than the window', async () => {
    const { client, server, serverConn, serverReceived } = link({
      confirmationWindowSize: 1024 * 1024,
      callTimeoutMs: 1000,
    });
    const writes = jest.spyOn(serverConn, 'write');
    const count = MAX_UNCONFIRMED_COMMANDS + 10;
    for (let i = 0; i < count; i++) client.send(START);
    await until(() => serverReceived.length === count);
    for (let i = 0; i < MAX_UNCONFIRMED_COMMANDS - 1; i++) server.confirm(i, START_BYTES);
    expect(confirmationsWritten(writes)).toEqual([]);
    server.confirm(MAX_UNCONFIRMED_COMMANDS - 1, START_BYTES);
    expect(confirmationsWritten(writes)).toEqual([MAX_UNCONFIRMED_COMMANDS - 1]);
    await until(() => client.resendBufferBytes === 10 * START_BYTES);
    for (let i = MAX_UNCONFIRMED_COMMANDS; i < count; i++) server.confirm(i, START_BYTES);
    expect(confirmationsWritten(writes)).toEqual([MAX_UNCONFIRMED_COMMANDS - 1]);
  });

  it('reports once, on the next tick, when the peer leaves more unconfirmed than the limit, and again after it confirms', async () => {
    let exceeded = 0;
    const limited: ChannelOptions = {
      confirmationWindowSize: 1024 * 1024,
      callTimeoutMs: 1000,
      unconfirmedLimit: { bytes: 1024 * 1024, commands: 3, exceeded: () => exceeded++ },
    };
    const { client, server, serverReceived } = link(limited, {
      confirmationWindowSize: 1024 * 1024,
      callTimeoutMs: 1000,
    });
    for (let i = 0; i < 3; i++) client.send(START);
    await tick();
    expect(exceeded).toBe(0);
    client.send(START);
    expect(exceeded).toBe(0);
    await tick();
    expect(exceeded).toBe(1);
    client.send(START);
    await tick();
    expect(exceeded).toBe(1);
    await until(() => serverReceived.length === 5);
    for (let i = 0; i < 5; i++) server.confirm(i, START_BYTES);
    server.flushConfirmations();
    await until(() => client.resendBufferBytes === 0);
    for (let i = 0; i < 4; i++) client.send(START);
    await tick();
    expect(exceeded).toBe(2);
  });

  it('flushConfirmations confirms what was handled since the last confirmation, once', async () => {
    const { client, server, serverConn, serverReceived } = link({
      confirmationWindowSize: 1024,
      callTimeoutMs: 1000,
    });
    const writes = jest.spyOn(serverConn, 'write');
    for (let i = 0; i < 3; i++) client.send(START);
    await until(() => serverReceived.length === 3);
    server.flushConfirmations();
    expect(confirmationsWritten(writes)).toEqual([]);

    server.confirm(0, START_BYTES);
    server.confirm(1, START_BYTES);
    server.flushConfirmations();
    server.flushConfirmations();
    expect(confirmationsWritten(writes)).toEqual([1]);
    await until(() => client.resendBufferBytes === START_BYTES);
  });

  it('confirms responses as it receives them, so the peer can release them', async () => {
    const { client, server, serverReceived, clientConn } = link({
      confirmationWindowSize: 1,
      callTimeoutMs: 1000,
    });
    const writes = jest.spyOn(clientConn, 'write');
    const call = client.sendBlocking({ type: PacketType.SESS_COMMIT });
    await until(() => serverReceived.length === 1);
    server.send({ type: PacketType.NULL_RESPONSE });
    expect(server.resendBufferBytes).toBeGreaterThan(0);
    await expect(call).resolves.toEqual({ type: PacketType.NULL_RESPONSE });
    expect(client.lastConfirmedCommandId).toBe(0);
    expect(confirmationsWritten(writes)).toEqual([0]);
    await until(() => server.resendBufferBytes === 0);
  });

  it('with window -1 keeps no resend buffer and sends no confirmations', async () => {
    const { client, server, serverConn, serverReceived } = link({
      confirmationWindowSize: -1,
      callTimeoutMs: 1000,
    });
    const writes = jest.spyOn(serverConn, 'write');
    for (let i = 0; i < 3; i++) expect(client.send(START)).toBe(i);
    expect(client.resendBufferBytes).toBe(0);
    expect(client.resendBufferPeakBytes).toBe(0);
    expect(client.hasCapacity()).toBe(true);
    await until(() => serverReceived.length === 3);
    for (let i = 0; i < 3; i++) server.confirm(i, 1_000_000);
    server.flushConfirmations();
    expect(confirmationsWritten(writes)).toEqual([]);
    // Still counted: a reattach request would report it.
    expect(server.lastConfirmedCommandId).toBe(2);
  });
});

describe('Channel blocking calls', () => {
  it('settles the oldest waiting call with each response, as HornetQ matches them (no correlation)', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    const calls = ['a', 'b', 'c'].map((name) => client.sendBlocking(queueQuery(name)));
    expect(client.outstandingCalls).toBe(3);
    await until(() => serverReceived.length === 3);
    for (const { packet, commandId, size } of serverReceived) {
      server.send(queryResponse(`address-of-${(packet as QueueQuery).queueName}`));
      server.confirm(commandId, size);
    }
    const responses = await Promise.all(calls);
    expect(responses.map((r) => (r as { address: string }).address)).toEqual([
      'address-of-a',
      'address-of-b',
      'address-of-c',
    ]);
    expect(client.outstandingCalls).toBe(0);
  });

  it('a long pipeline of calls is answered in order, each call with its own answer', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: -1, callTimeoutMs: 30_000 });
    const names = Array.from({ length: 3000 }, (_, i) => `q${i}`);
    const calls = names.map((name) => client.sendBlocking(queueQuery(name)));
    await until(() => serverReceived.length === names.length, 10_000);
    for (const { packet } of serverReceived) server.send(queryResponse((packet as QueueQuery).queueName));
    const responses = await Promise.all(calls);
    expect(responses.map((r) => (r as { address: string }).address)).toEqual(names);
    expect(client.outstandingCalls).toBe(0);
  });

  it('uncounted requests (CREATESESSION) are matched in order and counted by neither side', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: -1, callTimeoutMs: 5000 });
    const first = client.sendBlocking(createSession('one'));
    const second = client.sendBlocking(createSession('two'));
    await until(() => serverReceived.length === 2);
    expect(serverReceived.map((r) => r.commandId)).toEqual([-1, -1]);
    server.send(createSessionResponse(124));
    server.send(createSessionResponse(136));
    await expect(first).resolves.toMatchObject({ serverVersion: 124 });
    await expect(second).resolves.toMatchObject({ serverVersion: 136 });
    expect(client.lastConfirmedCommandId).toBe(-1);
    expect(client.send(START)).toBe(0);
  });

  it('with serialBlockingCalls writes a request only once the one before it has its answer', async () => {
    const { client, server, serverReceived } = link({
      confirmationWindowSize: -1,
      callTimeoutMs: 5000,
      serialBlockingCalls: true,
    });
    const first = client.sendBlocking(createSession('one'));
    const second = track(client.sendBlocking(createSession('two')));
    await until(() => serverReceived.length === 1);
    for (let i = 0; i < 20; i++) await tick();
    expect(serverReceived).toHaveLength(1);
    server.send(createSessionResponse(124));
    await expect(first).resolves.toMatchObject({ serverVersion: 124 });
    await until(() => serverReceived.length === 2);
    expect((serverReceived[1]?.packet as { name: string }).name).toBe('two');
    server.send(createSessionResponse(124));
    await until(() => second.settled);
    expect(second.value).toMatchObject({ serverVersion: 124 });
  });

  it('with serialBlockingCalls a call that timed out lets the next one go', async () => {
    const { client, serverReceived } = link({
      confirmationWindowSize: -1,
      callTimeoutMs: 5000,
      serialBlockingCalls: true,
    });
    const first = client.sendBlocking(createSession('one'), 20);
    const second = track(client.sendBlocking(createSession('two')));
    await expect(first).rejects.toThrow(/CREATESESSION/);
    await until(() => serverReceived.length === 2);
    expect(second.settled).toBe(false);
  });

  it('with serialBlockingCalls returnBlocking also fails the calls waiting for their turn, which are never written', async () => {
    const { client, serverReceived } = link({
      confirmationWindowSize: -1,
      callTimeoutMs: 5000,
      serialBlockingCalls: true,
    });
    const first = client.sendBlocking(createSession('one'));
    const second = client.sendBlocking(createSession('two'));
    await until(() => serverReceived.length === 1);
    const error = new HornetQException('UNBLOCKED', 'connection failed');
    client.returnBlocking(error);
    await expect(first).rejects.toBe(error);
    await expect(second).rejects.toBe(error);
    for (let i = 0; i < 20; i++) await tick();
    expect(serverReceived).toHaveLength(1);
    expect(client.outstandingCalls).toBe(0);
  });

  it('an EXCEPTION response rejects the oldest call with a HornetQException of that code', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    const call = client.sendBlocking(queueQuery('missing'));
    const other = client.sendBlocking(queueQuery('present'));
    await until(() => serverReceived.length === 2);
    server.send({
      type: PacketType.EXCEPTION,
      code: 'QUEUE_DOES_NOT_EXIST',
      message: 'Queue missing does not exist',
    });
    server.send(queryResponse('x'));
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HornetQException);
    expect((error as HornetQException).code).toBe('QUEUE_DOES_NOT_EXIST');
    expect((error as HornetQException).message).toBe('Queue missing does not exist');
    await expect(other).resolves.toMatchObject({ address: 'x' });
  });

  it('a call that gets no response rejects with CONNECTION_TIMEDOUT and leaves a tombstone for its late answer', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask'] });
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000 });
    const short = track(client.sendBlocking(queueQuery('short'), 100));
    const long = track(client.sendBlocking(queueQuery('long')));
    await until(() => serverReceived.length === 2);

    jest.advanceTimersByTime(99);
    await tick();
    expect(short.settled).toBe(false);
    jest.advanceTimersByTime(1);
    await tick();
    expect(short.settled).toBe(true);
    expect(HornetQException.is(short.error, 'CONNECTION_TIMEDOUT')).toBe(true);
    expect((short.error as Error).message).toContain('SESS_QUEUEQUERY');
    expect(long.settled).toBe(false);
    // The timed-out call still holds its place in the line.
    expect(client.outstandingCalls).toBe(2);

    // Its late answer is taken by the tombstone; the other call gets its own answer, not that one.
    server.send(queryResponse('late'));
    await until(() => client.outstandingCalls === 1);
    expect(long.settled).toBe(false);
    server.send(queryResponse('in time'));
    await until(() => long.settled);
    expect(long.value).toMatchObject({ address: 'in time' });
    expect(client.outstandingCalls).toBe(0);
  });

  it('a tombstone takes a late EXCEPTION too, and a call made after it gets the next answer', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    await expect(client.sendBlocking(queueQuery('slow'), 10)).rejects.toThrow(/Timed out/);
    const next = client.sendBlocking(queueQuery('next'));
    await until(() => serverReceived.length === 2);
    server.send({ type: PacketType.EXCEPTION, code: 'INTERNAL_ERROR', message: 'late failure' });
    server.send(queryResponse('for next'));
    await expect(next).resolves.toMatchObject({ address: 'for next' });
  });

  it('an answer when no call waits is dropped and settles no later call', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    server.send(queryResponse('stray'));
    await until(() => client.lastConfirmedCommandId === 0);
    const call = client.sendBlocking(queueQuery('q'));
    await until(() => serverReceived.length === 1);
    server.send(queryResponse('mine'));
    await expect(call).resolves.toMatchObject({ address: 'mine' });
  });

  it('the default call timeout applies when none is given', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask'] });
    const { client } = link({ confirmationWindowSize: 1024, callTimeoutMs: 500 });
    const call = track(client.sendBlocking(queueQuery('q')));
    jest.advanceTimersByTime(499);
    await tick();
    expect(call.settled).toBe(false);
    jest.advanceTimersByTime(1);
    await tick();
    expect(HornetQException.is(call.error, 'CONNECTION_TIMEDOUT')).toBe(true);
  });

  it('returnBlocking rejects every pending call and forgets tombstones, so no later answer is shifted', async () => {
    const { client, server, serverReceived } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    const timedOut = client.sendBlocking(queueQuery('t'), 10);
    await expect(timedOut).rejects.toThrow(/Timed out/);
    const calls = [client.sendBlocking(queueQuery('a')), client.sendBlocking(queueQuery('b'))];
    const error = new HornetQException('UNBLOCKED', 'unblocked');
    client.returnBlocking(error);
    for (const call of calls) await expect(call).rejects.toBe(error);
    expect(client.outstandingCalls).toBe(0);
    // The channel itself stays usable, and the next answer goes to the next call.
    expect(client.closed).toBe(false);
    expect(client.send(START)).toBe(3);
    const next = client.sendBlocking(queueQuery('n'));
    await until(() => serverReceived.length === 5);
    server.send(queryResponse('for n'));
    await expect(next).resolves.toMatchObject({ address: 'for n' });
  });

  it('reset clears the line of calls like returnBlocking', async () => {
    const { client } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    await expect(client.sendBlocking(queueQuery('t'), 10)).rejects.toThrow(/Timed out/);
    const waiting = client.sendBlocking(queueQuery('w'));
    const error = new HornetQException('UNBLOCKED', 'session re-created');
    client.reset(error);
    await expect(waiting).rejects.toBe(error);
    expect(client.outstandingCalls).toBe(0);
  });

  it('close() rejects pending calls with OBJECT_CLOSED and refuses further sends', async () => {
    const { client, clientConn } = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    const call = client.sendBlocking(queueQuery('a'));
    client.close();
    const error = await call.catch((e: unknown) => e);
    expect(HornetQException.is(error, 'OBJECT_CLOSED')).toBe(true);
    expect(client.closed).toBe(true);
    expect(clientConn.getChannel(CHANNEL)).toBeUndefined();
    expect(() => client.send(START)).toThrow(HornetQException);
    const late = await client.sendBlocking(queueQuery('b')).catch((e: unknown) => e);
    expect(HornetQException.is(late, 'OBJECT_CLOSED')).toBe(true);
  });
});

describe('Channel calls a peer never answers', () => {
  /** Fake timers for the call deadlines; the in-VM transport's setImmediate stays real. */
  const useFakeTimers = (): void => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask'] });
  };

  /** Makes `count` calls of `timeoutMs` the server receives and never answers, and lets them time out. */
  async function timeOut(pair: Link, count: number, timeoutMs = 10): Promise<unknown[]> {
    const before = pair.serverReceived.length;
    const calls = Array.from({ length: count }, (_, i) =>
      pair.client.sendBlocking(queueQuery(`q${i}`), timeoutMs).catch((error: unknown) => error),
    );
    await until(() => pair.serverReceived.length === before + count, 10_000);
    jest.advanceTimersByTime(timeoutMs);
    return Promise.all(calls);
  }

  it('below the bound, timed-out calls wait for their late answers and the connection stays', async () => {
    useFakeTimers();
    const pair = link({ confirmationWindowSize: -1, callTimeoutMs: 5000 });
    const errors = await timeOut(pair, MAX_UNANSWERED_TIMED_OUT_CALLS - 1);
    expect(errors.every((error) => HornetQException.is(error, 'CONNECTION_TIMEDOUT'))).toBe(true);
    expect(pair.clientConn.closed).toBe(false);
    expect(pair.client.unansweredTimedOutCalls).toBe(MAX_UNANSWERED_TIMED_OUT_CALLS - 1);

    // The late answers come: each is taken by its tombstone, and the next call gets its own.
    for (let i = 0; i < MAX_UNANSWERED_TIMED_OUT_CALLS - 1; i++) pair.server.send(queryResponse('late'));
    await until(() => pair.client.outstandingCalls === 0, 10_000);
    const next = pair.client.sendBlocking(queueQuery('next'));
    await until(() => pair.serverReceived.length === MAX_UNANSWERED_TIMED_OUT_CALLS);
    pair.server.send(queryResponse('for next'));
    await expect(next).resolves.toMatchObject({ address: 'for next' });
  });

  it(`at ${MAX_UNANSWERED_TIMED_OUT_CALLS} unanswered timed-out calls fails the connection, saying the peer stopped answering`, async () => {
    useFakeTimers();
    const pair = link({ confirmationWindowSize: 1024, callTimeoutMs: 5000 });
    const failures: HornetQException[] = [];
    pair.clientConn.addFailureListener((error) => failures.push(error));
    await timeOut(pair, MAX_UNANSWERED_TIMED_OUT_CALLS);

    expect(pair.clientConn.closed).toBe(true);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.code).toBe('CONNECTION_TIMEDOUT');
    expect(failures[0]?.message).toMatch(
      new RegExp(
        `^${MAX_UNANSWERED_TIMED_OUT_CALLS} calls on channel ${CHANNEL} of .* timed out and were never answered .*the peer has stopped answering; failing the connection$`,
      ),
    );
  });

  it('while the line is at the bound, new calls are refused unsent and the line does not grow', async () => {
    useFakeTimers();
    const pair = link({ confirmationWindowSize: -1, callTimeoutMs: 5000 });
    await timeOut(pair, MAX_UNANSWERED_TIMED_OUT_CALLS);
    // The channel outlives its connection (a failover moves it): its line must stay bounded there.
    const [clientTransport, serverTransport] = InVmTransport.pair('channel-test-2');
    const nextConn = new RemotingConnection(clientTransport, { logger: silentLogger });
    const nextServerConn = new RemotingConnection(serverTransport, { logger: silentLogger });
    const written: Packet[] = [];
    nextServerConn.setUnroutedHandler((packet) => written.push(packet));
    nextServerConn
      .createChannel(CHANNEL, { confirmationWindowSize: -1, callTimeoutMs: 5000 })
      .setHandler((packet) => written.push(packet));
    pair.client.transferTo(nextConn);
    pair.client.replay(-1);

    for (let i = 0; i < 5; i++) {
      const refused = await pair.client.sendBlocking(queueQuery(`more${i}`)).catch((error: unknown) => error);
      expect(HornetQException.is(refused, 'CONNECTION_TIMEDOUT')).toBe(true);
      expect((refused as Error).message).toMatch(
        /the peer has stopped answering; SESS_QUEUEQUERY\(45\) was not sent$/,
      );
    }
    for (let i = 0; i < 20; i++) await tick();
    expect(written).toEqual([]);
    expect(pair.client.outstandingCalls).toBe(MAX_UNANSWERED_TIMED_OUT_CALLS);
    nextConn.close();
    nextServerConn.close();
  });
});

describe('Channel resend-buffer capacity', () => {
  it('has room for a frame while it would stay within the limit, and makes waiters wait for confirmations', async () => {
    const { client, server, serverReceived } = link({
      confirmationWindowSize: 1024,
      callTimeoutMs: 1000,
      resendBufferLimitBytes: 2 * START_BYTES,
    });
    await expect(client.waitForCapacity(START_BYTES)).resolves.toBeUndefined();
    client.send(START);
    expect(client.hasCapacity(START_BYTES)).toBe(true);
    client.send(START);
    expect(client.hasCapacity(START_BYTES)).toBe(false);
    expect(client.hasCapacity(1)).toBe(false);
    const waiting = track(client.waitForCapacity(START_BYTES));
    await until(() => serverReceived.length === 2);
    await tick();
    expect(waiting.settled).toBe(false);

    server.confirm(0, START_BYTES);
    server.flushConfirmations();
    await until(() => waiting.settled);
    expect(client.hasCapacity(START_BYTES)).toBe(true);
    expect(client.resendBufferBytes).toBe(START_BYTES);
  });

  it('an empty buffer takes one frame larger than the limit, alone', () => {
    const { client } = link({
      confirmationWindowSize: 1024,
      callTimeoutMs: 1000,
      resendBufferLimitBytes: START_BYTES,
    });
    expect(client.hasCapacity(10 * START_BYTES)).toBe(true);
    client.send(START);
    expect(client.hasCapacity(1)).toBe(false);
  });

  it('defaults the limit to twice the window, however small the window', () => {
    const { client } = link({ confirmationWindowSize: 1000, callTimeoutMs: 1000 });
    const frame: Packet = {
      type: PacketType.SESS_PRODUCER_REQUEST_CREDITS,
      address: 'a'.repeat(450), // a SimpleString: 2 bytes a character
      credits: 1,
    };
    client.send(frame);
    client.send(frame);
    expect(client.resendBufferBytes).toBeLessThanOrEqual(2000);
    expect(client.hasCapacity(client.resendBufferBytes / 2)).toBe(false);
  });

  it('defaults the limit to twice a large window', () => {
    const { client } = link({ confirmationWindowSize: 100_000, callTimeoutMs: 1000 });
    const big: Packet = {
      type: PacketType.SESS_PRODUCER_REQUEST_CREDITS,
      address: 'a'.repeat(49_000), // ~98 kB as a SimpleString (UTF-16)
      credits: 1,
    };
    // Two frames of ~99 kB stay under 2 × 100 kB; a third goes over.
    client.send(big);
    client.send(big);
    expect(client.hasCapacity()).toBe(true);
    client.send(big);
    expect(client.hasCapacity()).toBe(false);
  });

  it('close() wakes the senders waiting for room', async () => {
    const { client } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000, resendBufferLimitBytes: 1 });
    client.send(START);
    const waiting = track(client.waitForCapacity());
    client.close();
    await until(() => waiting.settled);
    expect(waiting.error).toBeUndefined();
  });

  it('waitForCapacity on a closed channel settles instead of waiting forever', async () => {
    const { client } = link({ confirmationWindowSize: 1024, callTimeoutMs: 1000, resendBufferLimitBytes: 1 });
    client.send(START);
    client.close();
    const waiting = track(client.waitForCapacity());
    await until(() => waiting.settled, 50);
  });
});

describe('Channel reset keeping commands to send again', () => {
  const WINDOW = { confirmationWindowSize: 1024 * 1024, callTimeoutMs: 5000 };
  const isSend = (packet: Packet): boolean => packet.type === PacketType.SESS_SEND;
  const reCreated = new HornetQException('UNBLOCKED', 'session re-created');
  const answered: Packet = { type: PacketType.NULL_RESPONSE };

  function send(body: string, requiresResponse: boolean): Packet {
    const message = new CoreMessage();
    message.durable = true;
    message.body = Buffer.from(body);
    return { type: PacketType.SESS_SEND, message, requiresResponse };
  }

  function bodiesOf(received: readonly Received[]): string[] {
    return received.map(({ packet }) =>
      packet.type === PacketType.SESS_SEND ? packet.message.body.toString() : packetTypeName(packet.type),
    );
  }

  it('keeps the picked commands and their waiting calls; they go after what was sent since, as new commands', async () => {
    const { client, server, serverReceived } = link(WINDOW);
    client.send(START);
    const blocking = track(client.sendBlocking(send('a', true)));
    client.send(send('b', false));
    const query = track(client.sendBlocking(queueQuery('q')));
    await until(() => serverReceived.length === 4);
    client.hold();
    const held = client.reset(reCreated, isSend);
    await until(() => query.settled);
    expect(query.error).toBe(reCreated);
    expect(blocking.settled).toBe(false);

    serverReceived.length = 0;
    expect(client.send(START)).toBe(0);
    expect(client.resendHeld(held)).toBe(2);
    await until(() => serverReceived.length === 3);
    expect(bodiesOf(serverReceived)).toEqual([packetTypeName(PacketType.SESS_START), 'a', 'b']);
    expect(client.resendBufferBytes).toBeGreaterThan(0);
    server.send(answered);
    await until(() => blocking.settled);
    expect(blocking.value).toEqual(answered);
  });

  it('a command the peer answered is not sent again, even unconfirmed: it was executed', async () => {
    const { client, server, serverReceived } = link(WINDOW);
    const first = client.sendBlocking(send('a', true));
    await until(() => serverReceived.length === 1);
    server.send(answered);
    await first;
    client.send(send('b', false));
    await until(() => serverReceived.length === 2);
    const held = client.reset(reCreated, isSend);
    serverReceived.length = 0;
    expect(client.resendHeld(held)).toBe(1);
    await until(() => serverReceived.length === 1);
    expect(bodiesOf(serverReceived)).toEqual(['b']);
  });

  it('a kept call that had timed out stays a tombstone: the answer to its resend settles nothing else', async () => {
    const { client, server, serverReceived } = link(WINDOW);
    await expect(client.sendBlocking(send('late', true), 10)).rejects.toThrow(/Timed out/);
    const waiting = track(client.sendBlocking(send('waiting', true)));
    await until(() => serverReceived.length === 2);
    const held = client.reset(reCreated, isSend);
    expect(client.resendHeld(held)).toBe(2);
    await until(() => serverReceived.length === 4);
    server.send({ type: PacketType.EXCEPTION, code: 'INTERNAL_ERROR', message: 'for late' });
    server.send(answered);
    await until(() => waiting.settled);
    expect(waiting.value).toEqual(answered);
  });

  it('calls set aside on a broken numbering take no late answer, and wait for their resend', async () => {
    const { client, server, serverReceived } = link(WINDOW);
    const blocking = track(client.sendBlocking(send('a', true)));
    const query = track(client.sendBlocking(queueQuery('q')));
    await until(() => serverReceived.length === 2);
    const broken = new HornetQException('UNBLOCKED', 'numbering broken');
    client.setAsideCalls(isSend, broken);
    await until(() => query.settled);
    expect(query.error).toBe(broken);
    // An answer from the session whose numbering broke: nobody in the line takes it.
    server.send({ type: PacketType.EXCEPTION, code: 'INTERNAL_ERROR', message: 'stale' });
    for (let i = 0; i < 10; i++) await tick();
    expect(blocking.settled).toBe(false);
    const held = client.reset(reCreated, isSend);
    expect(client.resendHeld(held)).toBe(1);
    await until(() => serverReceived.length === 3);
    server.send(answered);
    await until(() => blocking.settled);
    expect(blocking.value).toEqual(answered);
  });

  it('calls set aside are released by a reset that keeps nothing', async () => {
    const { client, serverReceived } = link(WINDOW);
    const blocking = track(client.sendBlocking(send('a', true)));
    await until(() => serverReceived.length === 1);
    client.setAsideCalls(isSend, new HornetQException('UNBLOCKED', 'numbering broken'));
    client.reset(reCreated);
    await until(() => blocking.settled);
    expect(blocking.error).toBe(reCreated);
  });

  it('senders waiting for room wake once the kept commands went, so that none overtakes them', async () => {
    const small = encodePacket(CHANNEL, send('a', false)).length;
    const { client, serverReceived } = link({ ...WINDOW, resendBufferLimitBytes: 3 * small });
    client.send(send('a', false));
    client.send(queueQuery('q'.repeat(4 * small)));
    await until(() => serverReceived.length === 2);
    const room = track(client.waitForCapacity(small));
    await tick();
    expect(room.settled).toBe(false);
    const held = client.reset(reCreated, isSend);
    for (let i = 0; i < 10; i++) await tick();
    expect(room.settled).toBe(false);
    client.resendHeld(held);
    await until(() => room.settled);
    expect(client.hasCapacity(small)).toBe(true);
  });

  it('kept calls fail like the others when the channel closed before the resend', async () => {
    const { client, serverReceived } = link(WINDOW);
    const blocking = track(client.sendBlocking(send('a', true)));
    await until(() => serverReceived.length === 1);
    const held = client.reset(reCreated, isSend);
    client.close();
    expect(client.resendHeld(held)).toBe(0);
    await until(() => blocking.settled);
    expect(HornetQException.is(blocking.error, 'OBJECT_CLOSED')).toBe(true);
  });
});
