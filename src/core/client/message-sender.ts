import { randomUUID } from 'node:crypto';
import { MessageHeader, PropertyKind, type CoreMessage, type Packet } from '../protocol';
import { SEND_FRAME_OVERHEAD } from '../protocol/packet-codec';
import { PacketType } from '../protocol/packet-type';
import type { Channel, ConfirmationWaiter } from '../remoting';
import { abortable } from './abortable';
import type { ClientOptions } from './client-options';
import { LargeMessageSender, type LargeMessageLimits } from './large-message-sender';
import type { SendGate } from './send-gate';
import type { SessionCalls } from './session-calls';

/** What sending needs from its session. */
export interface SendingSession {
  /** True while the factory handles a failure: sends made meanwhile wait for it. */
  readonly failingOver: boolean;
  /** Waits out a failover in progress (rejecting after call-failover-timeout); throws once closed. */
  ready(): Promise<void>;
  /** A send is work of the session's transaction, when it has one. */
  workDone(): void;
}

/** The settings that decide how a message is sent. */
export type SendSettings = Pick<
  ClientOptions,
  'blockOnDurableSend' | 'blockOnNonDurableSend' | 'duplicateIdOnDurableSend'
> &
  LargeMessageLimits;

/**
 * Puts a session's messages on the wire in the order they were sent. The common send goes
 * straight to the SendGate; during a failover or a large message, sends wait, and while any
 * waits, later ones queue behind it so that none overtakes another and no large message's chunks
 * are interleaved with other sends.
 */
export class MessageSender {
  /** Sends waiting for a failover or a large message to end; later sends queue behind them. */
  private waitingSends = 0;
  /** A large message being sent: other sends wait for it, so its chunks are not interleaved. */
  private largeSend: Promise<void> | null = null;
  private readonly large: LargeMessageSender;

  constructor(
    private readonly session: SendingSession,
    private readonly channel: Pick<Channel, 'encode' | 'send'>,
    private readonly calls: Pick<SessionCalls, 'call'>,
    private readonly gate: Pick<SendGate, 'tryTake' | 'submit'>,
    private readonly settings: SendSettings,
  ) {
    this.large = new LargeMessageSender(gate, channel, calls, settings);
  }

  /**
   * Sends a message to `address` once `pacing` (the producer's rate limit) allows. It is encoded
   * at once, so the caller may change or reuse the message object as soon as this returns; it
   * goes on the wire after every send made before it. An abort of `signal` while the send waits
   * (for pacing, a failover, a large message, credits or room) withdraws it unsent; once written,
   * only the wait for the broker's answer stops (see ClientProducer.send).
   *
   * With `confirmation` the send goes one-way whatever block-on-*-send say, and `confirmation`
   * settles when the broker confirms (or refuses) its command, the last chunk's for a large
   * message; the promise returned resolves once the send is written.
   */
  send(
    message: CoreMessage,
    address: string,
    pacing?: Promise<void>,
    signal?: AbortSignal,
    confirmation?: ConfirmationWaiter,
  ): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    message.address = address;
    const blocking =
      confirmation === undefined &&
      (message.durable ? this.settings.blockOnDurableSend : this.settings.blockOnNonDurableSend);
    const way: SendWay = { blocking, confirmation };
    const stamp = this.needsDuplicateId(message);
    if (this.large.isLarge(message.body)) {
      const copy = message.copy();
      if (stamp) copy.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, newDuplicateId());
      return pacing === undefined
        ? this.sendLarge(copy, way, signal)
        : abortable(pacing, signal).then(() => this.sendLarge(copy, way, signal));
    }
    const packet: Packet = { type: PacketType.SESS_SEND, message, requiresResponse: blocking };
    let frame: Buffer;
    try {
      // The id goes into the frame only: the caller's message is left as it was, to be sent again.
      if (stamp) message.properties.set(MessageHeader.DUPLICATE_DETECTION_ID, newDuplicateId());
      frame = this.channel.encode(packet);
    } catch (error) {
      return Promise.reject(error);
    } finally {
      if (stamp) message.properties.delete(MessageHeader.DUPLICATE_DETECTION_ID);
    }
    if (pacing !== undefined) {
      return abortable(pacing, signal).then(() => this.sendEncoded(packet, frame, way, signal));
    }
    return this.sendEncoded(packet, frame, way, signal);
  }

  private needsDuplicateId(message: CoreMessage): boolean {
    return (
      this.settings.duplicateIdOnDurableSend &&
      message.durable &&
      !message.properties.has(MessageHeader.DUPLICATE_DETECTION_ID)
    );
  }

  /** The session was re-created on the broker: a large message under way is cut off. */
  sessionRecreated(): void {
    this.large.sessionRecreated();
  }

  /**
   * Hands the encoded send to the gate. The common case goes straight there (one promise per
   * send); during a failover or a large message, sends wait, and while any waits, later ones
   * queue behind it so that none overtakes another.
   */
  private sendEncoded(packet: Packet, frame: Buffer, way: SendWay, signal?: AbortSignal): Promise<void> {
    if (this.waitingSends === 0 && this.largeSend === null && !this.session.failingOver) {
      return this.submit(packet, frame, way, signal);
    }
    return this.sendWhenReady(packet, frame, way, signal);
  }

  /**
   * Submits only once no failover is in progress (a large message may have ended during another
   * one): a held channel without a resend buffer would neither write nor keep the send, and it
   * would resolve all the same. A send that waits out call-failover-timeout rejects unsent.
   */
  private async sendWhenReady(
    packet: Packet,
    frame: Buffer,
    way: SendWay,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    this.waitingSends++;
    try {
      await this.whenMayGo(signal);
    } finally {
      this.waitingSends--;
    }
    await this.submit(packet, frame, way, signal);
  }

  /** Waits out a failover and a large message under way; an abort of `signal` ends the wait. */
  private async whenMayGo(signal: AbortSignal | undefined): Promise<void> {
    do {
      await abortable(this.session.ready(), signal);
      while (this.largeSend !== null) await abortable(this.largeSend, signal);
    } while (this.session.failingOver);
  }

  private submit(packet: Packet, frame: Buffer, way: SendWay, signal?: AbortSignal): Promise<void> {
    this.session.workDone();
    const address = (packet as { message: CoreMessage }).message.address;
    const { blocking, confirmation } = way;
    if (!blocking && this.gate.tryTake(address, frame.length - SEND_FRAME_OVERHEAD)) {
      // The common non-blocking send: written now, and answered with one shared settled promise.
      try {
        this.channel.send(packet, frame, confirmation);
      } catch (error) {
        return Promise.reject(error);
      }
      return SENT;
    }
    return this.gate
      .submit<unknown>(
        address,
        frame.length - SEND_FRAME_OVERHEAD,
        () =>
          blocking
            ? this.calls.call(packet, `a blocking send to ${address}`, frame)
            : this.channel.send(packet, frame, confirmation),
        signal,
      )
      .then(ignore);
  }

  /**
   * Other sends of the session wait until the last chunk is out. An abort of `signal` before the
   * head is written withdraws the message; after, its chunks still all go (a head without its
   * chunks would leave the broker waiting for them), and only the caller stops waiting.
   */
  private async sendLarge(message: CoreMessage, way: SendWay, signal?: AbortSignal): Promise<void> {
    this.large.checkSize(message.body);
    await abortable(this.session.ready(), signal);
    while (this.largeSend !== null) await abortable(this.largeSend, signal);
    this.session.workDone();
    const transmission = this.large.transmit(message, way.blocking, signal, way.confirmation);
    // Cleared when the transmission ends, not when the caller stops waiting for it (an abort).
    const ended = (): void => {
      if (this.largeSend === done) this.largeSend = null;
    };
    const done: Promise<void> = transmission.then(ended, ended);
    this.largeSend = done;
    await abortable(transmission, signal);
  }
}

/** How a send goes: blocking (waits for the answer), or one-way, its confirmation awaited or not. */
export interface SendWay {
  readonly blocking: boolean;
  /** Settles on the broker's confirmation of the send (its last chunk's, for a large message). */
  readonly confirmation: ConfirmationWaiter | undefined;
}

function ignore(): void {}

/** A duplicate-detection id for one send (a string, as HornetQ's JMS examples set it). */
function newDuplicateId(): { kind: typeof PropertyKind.STRING; value: string } {
  return { kind: PropertyKind.STRING, value: randomUUID() };
}

/** What every non-blocking send that went out at once resolves with. */
const SENT: Promise<void> = Promise.resolve();
