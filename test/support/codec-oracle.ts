import { FrameDecoder } from '../../src/core/protocol/frame-decoder';
import { decodeFrame } from '../../src/core/protocol/packet-codec';
import { PacketType } from '../../src/core/protocol/packet-type';
import type { Packet } from '../../src/core/protocol/packets';
import { ProtocolError } from '../../src/core/protocol/protocol-error';

/**
 * Runs a byte stream through the real codec, as the broker's connection does (the same frame
 * decoder, the same packet decoder), to say what the broker must do with it: a stream the codec
 * refuses must cost its sender the connection. It also counts what the stream could make the
 * broker keep, the bounds the fuzz test holds the broker to.
 */
export class CodecOracle {
  private readonly decoder: FrameDecoder;
  /** The first ProtocolError's message, once the codec has refused the stream. */
  rejection: string | null = null;
  /** Anything else the codec threw: a crash in the codec itself. */
  crash: string | null = null;
  /** Queues the accepted frames could create that outlive their connection (CREATE_QUEUE, not temporary). */
  lastingQueues = 0;
  /** Messages the accepted frames could leave in queues (sends and final large-message chunks). */
  messages = 0;
  frames = 0;
  /** Which call of feed() the codec refused (counting from 0), or -1. */
  refusedAt = -1;
  private feeds = 0;

  /** `maxFrameBytes`: the broker's cap once a session is open (before, its cap is lower still). */
  constructor(maxFrameBytes: number) {
    this.decoder = new FrameDecoder(maxFrameBytes);
    // As the broker's connections: a stream may open with HornetQ's preamble (Artemis' is refused).
    this.decoder.acceptPreamble();
  }

  get refused(): boolean {
    return this.rejection !== null || this.crash !== null;
  }

  feed(bytes: Buffer): void {
    const index = this.feeds++;
    if (this.refused) return;
    try {
      this.decoder.feed(bytes, (frame) => this.count(decodeFrame(frame, true).packet));
    } catch (error) {
      this.refusedAt = index;
      if (error instanceof ProtocolError) this.rejection = error.message;
      else this.crash = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }

  private count(packet: Packet): void {
    this.frames++;
    if (packet.type === PacketType.CREATE_QUEUE && !packet.temporary) this.lastingQueues++;
    if (packet.type === PacketType.SESS_SEND) this.messages++;
    if (packet.type === PacketType.SESS_SEND_CONTINUATION && !packet.continues) this.messages++;
  }
}
