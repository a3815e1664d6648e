import { ClientSessionFactory } from '../../../src/core/client/client-session-factory';
import { FailoverEventType, type FailoverEvent } from '../../../src/core/client/failover-events';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { requiresConfirmation, type Packet } from '../../../src/core/protocol/packets';
import { ScriptedBroker, type ReceivedFrame } from './scripted-broker';

/**
 * Our client against a peer that numbers commands as HornetQ 2.4 and Artemis do (issue 25): it
 * confirms a command only once stored, answers a reattach with the last command it stored, and
 * executes again whatever is replayed, so a command still being stored when the link went is
 * executed twice and answered twice, and the peer then counts one command more than was sent.
 * The client must neither wedge nor hand an answer to the wrong call, and must not go on with a
 * numbering that is not its own.
 */

const SESSION_CHANNEL = 10;
const WINDOW = 1024 * 1024;

/** The peer's side of each session channel: what it executed and stored, answers in order. */
interface ChannelState {
  executed: number;
  stored: number;
  /** Answers in the order the peer will write them; a held one keeps those behind it waiting. */
  outbox: Array<{ packet: Packet; ready: boolean }>;
}

class StoringPeer {
  readonly broker: ScriptedBroker;
  private readonly channels = new Map<number, ChannelState>();
  /** The next blocking send is stored only when `release` is called (a journal write under way). */
  holdNextSend = false;
  private held: (() => void) | null = null;
  /** Runs once the reattach answer went: a test releases the held send from here. */
  afterReattach: () => void = () => undefined;

  constructor() {
    this.broker = new ScriptedBroker({ intercept: (frame, reply) => this.intercept(frame, reply) });
  }

  /** Bodies of every SESS_SEND received, in order (a body twice: the send was executed twice). */
  get sentBodies(): string[] {
    return this.broker.packets(PacketType.SESS_SEND).map((packet) => packet.message.body.toString());
  }

  /** The held send is stored now; its answer goes on the current link, ahead of later ones. */
  release(): void {
    const held = this.held;
    this.held = null;
    held?.();
  }

  private state(channelId: number): ChannelState {
    let state = this.channels.get(channelId);
    if (state === undefined) {
      state = { executed: 0, stored: -1, outbox: [] };
      this.channels.set(channelId, state);
    }
    return state;
  }

  private intercept(frame: ReceivedFrame, reply: (packet: Packet) => void): boolean {
    const { packet, channelId } = frame;
    if (packet.type === PacketType.REATTACH_SESSION) {
      reply({
        type: PacketType.REATTACH_SESSION_RESP,
        lastConfirmedCommandId: this.state(SESSION_CHANNEL).stored,
        reattached: true,
      });
      this.afterReattach();
      return true;
    }
    if (channelId < SESSION_CHANNEL || !requiresConfirmation(packet)) return false;
    const state = this.state(channelId);
    const id = state.executed++;
    const entry = { packet: answerTo(packet), ready: true };
    if (packet.type === PacketType.SESS_SEND && this.holdNextSend) {
      this.holdNextSend = false;
      entry.ready = false;
      this.held = () => {
        state.stored = Math.max(state.stored, id);
        entry.ready = true;
        this.flush(channelId, state);
      };
    } else {
      state.stored = Math.max(state.stored, id);
    }
    if (entry.packet === null) return false;
    state.outbox.push(entry as { packet: Packet; ready: boolean });
    this.flush(channelId, state);
    return true;
  }

  private flush(channelId: number, state: ChannelState): void {
    while (state.outbox[0]?.ready === true) {
      const { packet } = state.outbox.shift() as { packet: Packet };
      this.broker.send(channelId, packet);
    }
  }
}

/** The peer's answer to a counted request, or null for what the scripted broker answers itself. */
function answerTo(packet: Packet): Packet | null {
  switch (packet.type) {
    case PacketType.SESS_SEND:
      return packet.requiresResponse ? { type: PacketType.NULL_RESPONSE } : null;
    case PacketType.SESS_PRODUCER_REQUEST_CREDITS:
      return { type: PacketType.SESS_PRODUCER_CREDITS, credits: packet.credits, address: packet.address };
    case PacketType.SESS_BINDINGQUERY:
      return { type: PacketType.SESS_BINDINGQUERY_RESP, exists: false, queueNames: [] };
    default:
      return null;
  }
}

function durable(body: string): CoreMessage {
  const message = new CoreMessage();
  message.durable = true;
  message.body = Buffer.from(body);
  return message;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const peers: StoringPeer[] = [];
const factories: ClientSessionFactory[] = [];

afterEach(async () => {
  await Promise.allSettled(factories.splice(0).map((factory) => factory.close()));
  await Promise.all(peers.splice(0).map((peer) => peer.broker.stop()));
});

async function producerOn(peer: StoringPeer) {
  const port = await peer.broker.start();
  const factory = await ClientSessionFactory.connect({
    connectors: [{ host: '127.0.0.1', port }],
    callTimeout: 5_000,
    confirmationWindowSize: WINDOW,
    reconnectAttempts: 10,
    retryInterval: 20,
    maxRetryInterval: 20,
  });
  factories.push(factory);
  const events: FailoverEvent[] = [];
  factory.addFailoverListener((event) => events.push(event));
  const session = await factory.createSession();
  const producer = session.createProducer('q');
  await producer.send(durable('m0'));
  return { factory, session, producer, events };
}

function completed(events: FailoverEvent[]): FailoverEvent | undefined {
  return events.find((event) => event.type === FailoverEventType.FAILOVER_COMPLETED);
}

describe('our client against a peer that executes a replayed send twice', () => {
  it('an answer that comes after the reattach answer, before the replay: the send is not replayed, the session reattaches', async () => {
    const peer = new StoringPeer();
    peers.push(peer);
    const { producer, events } = await producerOn(peer);
    peer.holdNextSend = true;
    const sent = producer.send(durable('m1'));
    await until(() => peer.sentBodies.includes('m1'));
    peer.afterReattach = () => setTimeout(() => peer.release(), 10);
    peer.broker.dropConnections();
    await sent;
    await until(() => completed(events) !== undefined);
    expect(completed(events)?.reattached).toBe(true);
    await producer.send(durable('m2'));
    expect(peer.sentBodies).toEqual(['m0', 'm1', 'm2']);
  });

  it('a second answer after the replay: caught by the answer check; the session is created again beside the old one, and no send waits for an answer that went elsewhere', async () => {
    const peer = new StoringPeer();
    peers.push(peer);
    const { producer, events } = await producerOn(peer);
    peer.holdNextSend = true;
    const sent = producer.send(durable('m1'));
    await until(() => peer.sentBodies.includes('m1'));
    // Stored only after the client has replayed m1: the peer executes it a second time.
    peer.afterReattach = () => setTimeout(() => peer.release(), 400);
    peer.broker.dropConnections();
    await sent;
    await until(() => completed(events) !== undefined);
    expect(completed(events)?.reattached).toBe(false);
    // Executed twice by the peer (what duplicate ids are for), answered once to the caller.
    expect(peer.sentBodies).toEqual(['m0', 'm1', 'm1']);
    const creates = peer.broker.packets(PacketType.CREATESESSION);
    expect(creates).toHaveLength(2);
    expect(creates[1]?.name).not.toBe(creates[0]?.name);
    expect(creates[1]?.sessionChannelId).not.toBe(SESSION_CHANNEL);
    // The old session was closed, on its own channel; its answer is dropped, the link stays.
    const closes = peer.broker.received.filter((frame) => frame.packet.type === PacketType.SESS_CLOSE);
    expect(closes.map((frame) => frame.channelId)).toEqual([SESSION_CHANNEL]);
    const linksBefore = peer.broker.preambles.length;
    await producer.send(durable('m2'));
    const m2 = peer.broker.received.find(
      (frame) => frame.packet.type === PacketType.SESS_SEND && frame.packet.message.body.toString() === 'm2',
    );
    expect(m2?.channelId).toBe(creates[1]?.sessionChannelId);
    expect(peer.broker.preambles.length).toBe(linksBefore);
  });

  it('a confirmation of more commands than were sent: the link is failed and the session created again, not reattached', async () => {
    const peer = new StoringPeer();
    peers.push(peer);
    const { producer, events } = await producerOn(peer);
    peer.broker.send(SESSION_CHANNEL, { type: PacketType.PACKETS_CONFIRMED, commandId: 50 });
    await until(() => completed(events) !== undefined);
    const detected = events.find((event) => event.type === FailoverEventType.FAILURE_DETECTED);
    expect((detected?.cause as Error | undefined)?.message).toMatch(/confirmed command 50/);
    expect(completed(events)?.reattached).toBe(false);
    // The peer still had the session: a reattach took it over, and it was closed.
    expect(peer.broker.packets(PacketType.REATTACH_SESSION)).toHaveLength(1);
    expect(peer.broker.packets(PacketType.SESS_CLOSE)).toHaveLength(1);
    await producer.send(durable('m1'));
    expect(peer.sentBodies).toEqual(['m0', 'm1']);
  });
});
