import { HornetQException, type CoreMessage, type Packet } from '../protocol';
import { largeBodyChunks } from '../protocol/large-body-chunks';
import { PacketType } from '../protocol/packet-type';
import type { Channel, ConfirmationWaiter } from '../remoting';
import type { ClientOptions } from './client-options';
import type { SendGate } from './send-gate';
import type { SessionCalls } from './session-calls';

/** The settings that decide which bodies are large and how large they may be. */
export type LargeMessageLimits = Pick<
  ClientOptions,
  'minLargeMessageSize' | 'maxFrameBytes' | 'maxLargeMessageBytes'
>;

/**
 * Sends a message whose body is min-large-message-size or more as a head packet and chunks, so
 * that no frame holds it whole; each chunk takes producer credits and a place in the resend buffer
 * like any send. A re-creation of the session cuts a transmission off: the new broker session
 * never saw its head. Keeping transmissions from interleaving with other sends is the caller's job.
 */
export class LargeMessageSender {
  /** Counts re-creations: a transmission started before one cannot go on after it. */
  private generation = 0;

  constructor(
    private readonly gate: Pick<SendGate, 'submit'>,
    private readonly channel: Pick<Channel, 'send'>,
    private readonly calls: Pick<SessionCalls, 'call'>,
    private readonly limits: LargeMessageLimits,
  ) {}

  /** True when `body` travels in chunks. */
  isLarge(body: Buffer): boolean {
    return body.length >= this.threshold();
  }

  /** Throws LARGE_MESSAGE_ERROR_BODY when the body is over maxLargeMessageBytes. */
  checkSize(body: Buffer): void {
    if (body.length > this.limits.maxLargeMessageBytes) {
      throw new HornetQException(
        'LARGE_MESSAGE_ERROR_BODY',
        `message body of ${body.length} bytes exceeds maxLargeMessageBytes (${this.limits.maxLargeMessageBytes})`,
      );
    }
  }

  /**
   * Sends `message` (its address set) as head and chunks; a blocking one waits for the last
   * chunk's answer, and a confirmed one's confirmation settles on the last chunk's (as HornetQ's
   * send acknowledgement does: the broker has the message only once the last chunk is in). An abort of `signal` while the head waits for credits withdraws it, and
   * nothing is sent; once the head is out it has no effect, since the broker needs every chunk.
   */
  async transmit(
    message: CoreMessage,
    blocking: boolean,
    signal?: AbortSignal,
    confirmation?: ConfirmationWaiter,
  ): Promise<void> {
    const generation = this.generation;
    const body = message.body;
    const head = message.copy();
    head.body = Buffer.alloc(0);
    const address = head.address;
    await this.gate.submit(
      address,
      head.encodedSize(),
      () => this.channel.send({ type: PacketType.SESS_SEND_LARGE, message: head }),
      signal,
    );
    for (const { chunk, continues } of largeBodyChunks(body, this.threshold())) {
      if (generation !== this.generation) {
        throw new HornetQException('UNBLOCKED', 'Large message transmission interrupted by a reconnection');
      }
      const last = !continues;
      const packet: Packet = {
        type: PacketType.SESS_SEND_CONTINUATION,
        chunk,
        continues: !last,
        // HornetQ puts the body's size on the last chunk only (the head carries none).
        messageBodySize: last ? body.length : -1,
        requiresResponse: last && blocking,
      };
      await this.gate.submit<unknown>(address, chunk.length, () =>
        last && blocking
          ? this.calls.call(packet, `the last chunk of a blocking large message to ${address}`)
          : this.channel.send(packet, undefined, last ? confirmation : undefined),
      );
    }
  }

  /** The session was re-created on the broker: transmissions under way stop at their next chunk. */
  sessionRecreated(): void {
    this.generation++;
  }

  /** min-large-message-size, capped so that a message below it always fits in one frame. */
  private threshold(): number {
    return Math.min(this.limits.minLargeMessageSize, Math.floor(this.limits.maxFrameBytes / 2));
  }
}
