import {
  DEFAULT_MAX_FRAME_BYTES,
  FrameDecoder,
  FrameSlab,
  HornetQException,
  ProtocolError,
  type InputBudget,
  packetTypeName,
  type Packet,
} from '../protocol';
import { decodeFrameAt, encodePacket } from '../protocol/packet-codec';
import { PacketType } from '../protocol/packet-type';
import { Channel, type ChannelOptions } from './channel';
import type { Logger } from './logger';
import type { Transport } from './transport';

/** Channel ids with a fixed meaning; session channels start at FIRST_SESSION_CHANNEL. */
export const CHANNEL_ID = { PING: 0, SESSION: 1 } as const;
export const FIRST_SESSION_CHANNEL = 10;
/** A packet for a channel the connection has not opened: the owner decides (channels 0 and 1). */
export type UnroutedPacketHandler = (packet: Packet, channelId: number, size: number) => void;
export type FailureListener = (error: HornetQException) => void;
/** Told when the output passes its high-water mark (true) and when it has drained (false). */
export type CongestionListener = (congested: boolean) => void;

/**
 * The smallest frame whose arrival in parts gets the peer a prompt answer (see
 * setLargeFrameListener): half a socket buffer of HornetQ 2.4's Java client and server (32 KiB,
 * which Linux doubles), the size from which one frame may not fit in what is left of such a
 * buffer. Smaller frames, however many, never cost an answer.
 */
export const LARGE_FRAME_BYTES = 32 * 1024;

export interface RemotingConnectionOptions {
  logger: Logger;
  maxFrameBytes?: number;
  /** The cap until authenticate() is called; the broker sets it, a client trusts its broker. */
  preAuthMaxFrameBytes?: number;
  /** Received messages get memory of their own instead of views of the socket reads (decodeFrame). */
  detachMessages?: boolean;
  /**
   * Bytes written but not yet taken by the peer above which the connection is congested (its
   * congestion listener hears it, and the owner stops producing output); unbounded when absent.
   */
  outputHighWaterMark?: number;
  /**
   * The peer may open with HornetQ's `HORNETQ` preamble, which is skipped (a broker: HornetQ's
   * clients always send it, our in-VM ones do not); a native Artemis client's `ARTEMIS` preamble
   * fails the connection with an error that says so.
   */
  acceptPreamble?: boolean;
  /**
   * Shared by all of a broker's connections: what their unfinished frames may hold together. A
   * frame that would take them past it closes its connection, saying why.
   */
  inputBudget?: InputBudget;
}

let connectionIds = 0;

/**
 * Frames over one transport, multiplexed into channels. Anything wrong with what the peer sent
 * (a bad frame, an unknown packet, a packet other than a confirmation for a channel that does not
 * exist) fails this connection alone, with a log line that says why.
 */
/** Retired channel ids a connection remembers (see retireChannel). */
const MAX_RETIRED_CHANNELS = 64;

export class RemotingConnection {
  readonly id = ++connectionIds;
  /** Set on every chunk received; the TTL checks read and reset it. */
  dataReceived = false;
  private readonly channels = new Map<number, Channel>();
  private readonly decoder: FrameDecoder;
  /** Where outgoing frames are encoded: side by side, so that a batch goes to the socket as one view. */
  private readonly outgoing = new FrameSlab();
  /** The largest frame this connection sends or (once authenticated) accepts, length field included. */
  readonly maxFrameBytes: number;
  private readonly detachMessages: boolean;
  private readonly failureListeners = new Set<FailureListener>();
  private readonly outputHighWaterMark: number;
  private congestionListener: CongestionListener | null = null;
  private largeFrameListener: (() => void) | null = null;
  private isCongested = false;
  private unroutedHandler: UnroutedPacketHandler | null = null;
  private nextChannelId = FIRST_SESSION_CHANNEL;
  /** Channels whose late packets are dropped (see retireChannel). */
  private readonly retiredChannels = new Set<number>();
  private isClosed = false;
  private readonly logger: Logger;

  constructor(
    readonly transport: Transport,
    options: RemotingConnectionOptions,
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.detachMessages = options.detachMessages ?? false;
    this.outputHighWaterMark = options.outputHighWaterMark ?? Infinity;
    this.decoder = new FrameDecoder(
      options.preAuthMaxFrameBytes ?? this.maxFrameBytes,
      options.inputBudget ?? null,
    );
    if (options.acceptPreamble === true) this.decoder.acceptPreamble();
    this.logger = options.logger.child({ connection: this.id, remote: transport.remoteAddress });
    transport.setHandlers({
      onData: (chunk) => this.onData(chunk),
      onClose: (error) => this.onTransportClosed(error),
      onDrain: () => this.onDrain(),
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get remoteAddress(): string {
    return this.transport.remoteAddress;
  }

  /** True while more than the output high-water mark waits for the peer to take it. */
  get congested(): boolean {
    return this.isCongested;
  }

  setCongestionListener(listener: CongestionListener): void {
    this.congestionListener = listener;
  }

  /**
   * `listener` is told whenever a socket read ends inside a frame of LARGE_FRAME_BYTES or more, to
   * write something to the peer at once (a ping): our acknowledgement of those bytes then goes
   * with it. Without it the kernel holds the acknowledgement back (delayed ACK, 40 ms on Linux),
   * and a HornetQ 2.4 peer waits for it: its writes of a packet block until the packet is in its
   * socket buffer, 32 KiB by default, so a large-message chunk (100 KiB) is sent a buffer at a
   * time, each after the last was acknowledged. HornetQ's broker and client are not slowed by it:
   * their small receive buffers make the kernel acknowledge at once when they read, to reopen
   * the window; Node cannot set a socket's receive buffer.
   */
  setLargeFrameListener(listener: () => void): void {
    this.largeFrameListener = listener;
  }

  /** Lifts the pre-authentication frame cap once a session is authenticated. */
  authenticate(): void {
    this.decoder.maxFrameBytes = this.maxFrameBytes;
  }

  setUnroutedHandler(handler: UnroutedPacketHandler): void {
    this.unroutedHandler = handler;
  }

  addFailureListener(listener: FailureListener): void {
    this.failureListeners.add(listener);
  }

  removeFailureListener(listener: FailureListener): void {
    this.failureListeners.delete(listener);
  }

  /** A fresh id for a new session channel. */
  generateChannelId(): number {
    return this.nextChannelId++;
  }

  createChannel(id: number, options: ChannelOptions): Channel {
    if (this.channels.has(id)) {
      throw new HornetQException('ILLEGAL_STATE', `channel ${id} already exists on connection ${this.id}`);
    }
    const channel = new Channel(id, this, options);
    this.channels.set(id, channel);
    if (id >= this.nextChannelId) this.nextChannelId = id + 1;
    return channel;
  }

  /** Takes over a channel moved from another connection (reattach); keeps new ids clear of it. */
  adoptChannel(channel: Channel): void {
    if (this.channels.has(channel.id)) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `channel ${channel.id} already exists on connection ${this.id}`,
      );
    }
    this.channels.set(channel.id, channel);
    if (channel.id >= this.nextChannelId) this.nextChannelId = channel.id + 1;
  }

  /** Whether anything arrived since the last call; resets the flag (the liveness checks take it). */
  takeDataReceived(): boolean {
    const received = this.dataReceived;
    this.dataReceived = false;
    return received;
  }

  /** Pings the peer, telling it this end's connection TTL (a broker answers with the same ping). */
  writePing(connectionTtl: number): void {
    this.write(CHANNEL_ID.PING, { type: PacketType.PING, connectionTtl });
  }

  /** Sends every channel's pending confirmations; a closed connection has none to send. */
  flushConfirmations(): void {
    if (this.isClosed) return;
    for (const channel of this.channels.values()) channel.flushConfirmations();
  }

  getChannel(id: number): Channel | undefined {
    return this.channels.get(id);
  }

  /**
   * Drops from now on whatever the peer sends on channel `id`: a session re-created on a new
   * channel beside the broker session that held this one, which still answers what it had and
   * the close it was sent. At most MAX_RETIRED_CHANNELS are kept, the oldest forgotten first.
   */
  retireChannel(id: number): void {
    this.retiredChannels.add(id);
    if (this.retiredChannels.size > MAX_RETIRED_CHANNELS) {
      const oldest = this.retiredChannels.values().next().value as number;
      this.retiredChannels.delete(oldest);
    }
  }

  /** Forgets a channel: closed, or moved to another connection (reattach). */
  removeChannel(id: number): void {
    this.channels.delete(id);
  }

  get channelCount(): number {
    return this.channels.size;
  }

  /**
   * Encodes a frame, from `slab` or from the connection's own. Each channel encodes from a slab of
   * its own: the frames its resend buffer holds then lie together, so they keep about their own
   * size in slabs alive, not every slab whose other frames (another channel's) are long gone.
   */
  encode(channelId: number, packet: Packet, slab: FrameSlab = this.outgoing): Buffer {
    const frame = encodePacket(channelId, packet, slab);
    if (frame.length > this.maxFrameBytes) {
      throw new HornetQException(
        'INTERNAL_ERROR',
        `${packetTypeName(packet.type)} of ${frame.length} bytes exceeds the maximum frame size of ${this.maxFrameBytes} bytes`,
      );
    }
    return frame;
  }

  /** Writes a packet outside any channel's counting: pings, confirmations, handshakes. */
  write(channelId: number, packet: Packet): void {
    this.writeFrame(this.encode(channelId, packet));
  }

  writeFrame(frame: Buffer): void {
    if (this.isClosed) return;
    this.transport.write(frame);
    // Without a mark (clients) nothing is measured: this runs for every frame.
    if (this.outputHighWaterMark === Infinity || this.isCongested) return;
    if (this.transport.pendingBytes > this.outputHighWaterMark) {
      this.isCongested = true;
      this.congestionListener?.(true);
    }
  }

  /**
   * Fails the connection: the transport is destroyed and every failure listener hears why, once.
   * Pending blocking calls on its channels are left to the listeners (the client may reattach them).
   */
  fail(error: HornetQException): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.decoder.release();
    this.transport.destroy(error);
    for (const listener of [...this.failureListeners]) {
      // A failure is reported from socket events and timers, where a throw would end the
      // process: a listener that throws is logged, and the others still hear of the failure.
      try {
        listener(error);
      } catch (listenerError) {
        this.logger.error(
          { err: listenerError },
          `a failure listener of connection ${this.id} threw: ${errorMessage(listenerError)}`,
        );
      }
    }
  }

  /**
   * Fails the connection for something the peer did wrong that the decoder could not see (a
   * confirmation of commands never sent), saying why in the same line as a bad frame would.
   */
  failOnPeerError(error: HornetQException): void {
    if (this.isClosed) return;
    this.logger.warn(
      { reason: error.message },
      `closing connection ${this.id} from ${this.remoteAddress}: ${error.message}`,
    );
    this.fail(error);
  }

  /** Closes cleanly: what is queued is sent first; no failure is reported. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.decoder.release();
    this.transport.close();
  }

  private onData(chunk: Buffer): void {
    // Nothing read after a close is dispatched: no need to assemble it (nor to hold its memory).
    if (this.isClosed) return;
    this.dataReceived = true;
    try {
      this.decoder.feedRegions(chunk, this.dispatch);
      if (this.largeFrameListener !== null && this.decoder.incompleteFrameBytes >= LARGE_FRAME_BYTES) {
        this.largeFrameListener();
      }
    } catch (error) {
      this.failOnBadInput(error);
    }
  }

  /** A bound function, so that feeding a chunk creates no closure. */
  private readonly dispatch = (buffer: Buffer, start: number, end: number): void => {
    if (this.isClosed) return;
    const { channelId, packet, size } = decodeFrameAt(buffer, start, end, this.detachMessages);
    const channel = this.channels.get(channelId);
    if (channel !== undefined) {
      channel.handlePacket(packet, size);
    } else if (this.unroutedHandler !== null && channelId < FIRST_SESSION_CHANNEL) {
      this.unroutedHandler(packet, channelId, size);
    } else if (this.retiredChannels.has(channelId)) {
      this.logger.debug(
        { channel: channelId },
        `${packetTypeName(packet.type)} for retired channel ${channelId} dropped`,
      );
    } else if (packet.type === PacketType.PACKETS_CONFIRMED) {
      // Harmless, and a correct peer sends one: for a channel it closed before it saw the close,
      // and (HornetQ's Java client) for a session it is moving here, whose confirmation timer
      // flushes on the new connection before the REATTACH_SESSION that brings the channel.
      // What it confirms is settled by the reattach's last command id, or went with the channel.
      this.logger.debug(
        { channel: channelId },
        `confirmation for channel ${channelId}, which is not open on this connection, dropped`,
      );
    } else {
      throw new ProtocolError(
        `${packetTypeName(packet.type)} for channel ${channelId}, which does not exist`,
      );
    }
  };

  /** The peer took what was pending; below the mark again, the owner may produce output again. */
  private onDrain(): void {
    if (!this.isCongested || this.isClosed || this.transport.pendingBytes > this.outputHighWaterMark) return;
    this.isCongested = false;
    this.congestionListener?.(false);
  }

  private failOnBadInput(error: unknown): void {
    const reason = errorMessage(error);
    if (error instanceof ProtocolError) {
      this.logger.warn({ reason }, `closing connection ${this.id} from ${this.remoteAddress}: ${reason}`);
      this.fail(new HornetQException('UNSUPPORTED_PACKET', `protocol error: ${reason}`));
    } else {
      this.logger.error({ err: error }, `closing connection ${this.id} after an internal error: ${reason}`);
      this.fail(new HornetQException('INTERNAL_ERROR', reason, { cause: error }));
    }
  }

  private onTransportClosed(error: Error | undefined): void {
    if (this.isClosed) return;
    const partial = this.decoder.bufferedBytes;
    if (partial > 0) {
      // A peer that stops in the middle of a frame sent a truncated frame: say so, not just "closed".
      this.logger.warn(
        { reason: 'truncated frame', bytes: partial },
        `connection ${this.id} from ${this.remoteAddress} closed with ${partial} bytes of an incomplete (truncated) frame`,
      );
    }
    this.fail(
      new HornetQException(
        'NOT_CONNECTED',
        `Channel disconnected: ${this.remoteAddress}${error === undefined ? ' closed' : `: ${error.message}`}`,
        { cause: error },
      ),
    );
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
