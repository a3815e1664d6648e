import { LargeMessageSender, type LargeMessageLimits } from '../../../src/core/client/large-message-sender';
import { CoreMessage, HornetQException, type Packet, type ResponsePacket } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';

const LIMITS: LargeMessageLimits = {
  minLargeMessageSize: 100,
  maxFrameBytes: 1024,
  maxLargeMessageBytes: 1000,
};

/** A gate that runs each write when the test lets it, and a channel that records what went out. */
class Wire {
  readonly sent: Packet[] = [];
  readonly called: Array<{ packet: Packet; what: string }> = [];
  private held: Array<() => void> = [];
  holding = false;

  readonly gate = {
    submit: <T>(_address: string, _size: number, write: () => T | Promise<T>): Promise<T> => {
      if (!this.holding) return Promise.resolve(write());
      return new Promise<T>((resolve) => this.held.push(() => resolve(write())));
    },
  };

  readonly channel = {
    send: (packet: Packet): number => {
      this.sent.push(packet);
      return this.sent.length - 1;
    },
  };

  readonly calls = {
    call: (packet: Packet, what: string): Promise<ResponsePacket> => {
      this.called.push({ packet, what });
      return Promise.resolve({ type: PacketType.NULL_RESPONSE, correlationId: 0 });
    },
  };

  release(): void {
    this.holding = false;
    for (const write of this.held.splice(0)) write();
  }
}

function message(bodyBytes: number): CoreMessage {
  const m = new CoreMessage();
  m.address = 'q';
  m.body = Buffer.alloc(bodyBytes, 1);
  return m;
}

function sender(wire: Wire, limits = LIMITS): LargeMessageSender {
  return new LargeMessageSender(wire.gate, wire.channel, wire.calls, limits);
}

describe('LargeMessageSender', () => {
  it('a body of min-large-message-size or more is large, the size capped at half a frame', () => {
    const wire = new Wire();
    expect(sender(wire).isLarge(Buffer.alloc(99))).toBe(false);
    expect(sender(wire).isLarge(Buffer.alloc(100))).toBe(true);
    const capped = sender(wire, { ...LIMITS, minLargeMessageSize: 10_000 });
    expect(capped.isLarge(Buffer.alloc(511))).toBe(false);
    expect(capped.isLarge(Buffer.alloc(512))).toBe(true);
  });

  it('refuses a body over maxLargeMessageBytes, naming the setting', () => {
    expect(() => sender(new Wire()).checkSize(Buffer.alloc(1001))).toThrow(
      /1001 bytes exceeds maxLargeMessageBytes \(1000\)/,
    );
    expect(() => sender(new Wire()).checkSize(Buffer.alloc(1000))).not.toThrow();
  });

  it('sends an empty head, then chunks; a blocking message waits for the answer to its last chunk', async () => {
    const wire = new Wire();
    await sender(wire).transmit(message(250), true);
    expect(wire.sent.map((p) => p.type)).toEqual([
      PacketType.SESS_SEND_LARGE,
      PacketType.SESS_SEND_CONTINUATION,
      PacketType.SESS_SEND_CONTINUATION,
    ]);
    const head = wire.sent[0] as Extract<Packet, { type: typeof PacketType.SESS_SEND_LARGE }>;
    expect(head.message.body.length).toBe(0);
    expect(head).not.toHaveProperty('bodySize');
    // Only the last chunk carries the body's size (HornetQ's SessionSendContinuationMessage).
    expect(wire.sent[1]).toMatchObject({ continues: true, messageBodySize: -1, requiresResponse: false });
    expect(wire.called).toHaveLength(1);
    expect(wire.called[0]?.what).toMatch(/last chunk of a blocking large message to q/);
    expect(wire.called[0]?.packet).toMatchObject({
      continues: false,
      messageBodySize: 250,
      requiresResponse: true,
    });
  });

  it('a re-creation of the session cuts a transmission off at its next chunk with UNBLOCKED', async () => {
    const wire = new Wire();
    const large = sender(wire);
    wire.holding = true;
    const transmission = large.transmit(message(250), false).catch((error: unknown) => error);
    large.sessionRecreated();
    wire.release();
    const error = await transmission;
    expect(HornetQException.is(error, 'UNBLOCKED')).toBe(true);
    expect(wire.sent.map((p) => p.type)).toEqual([PacketType.SESS_SEND_LARGE]);
  });
});
