import { CoreMessage } from '../../../src/core/protocol/core-message';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { fromCoreMessage } from '../../../src/jms/message/from-core-message';
import type { HornetQMessage } from '../../../src/jms/message/hornetq-message';

/**
 * Sends `message` the way a producer and consumer would see it on the wire: toCoreMessage, a
 * SESS_SEND frame encoded and decoded (what the broker gets), then a SESS_RECEIVE_MSG frame with
 * `deliveryCount` encoded and decoded (what the consumer gets), then fromCoreMessage. The received
 * message must be of the same class as the sent one.
 */
export function transfer<T extends HornetQMessage>(message: T, deliveryCount = 1): T {
  const atBroker = throughWire(message.toCoreMessage());
  const sent = decodeFrame(
    encodePacket(7, { type: PacketType.SESS_RECEIVE_MSG, consumerId: 3, deliveryCount, message: atBroker }),
  );
  if (sent.packet.type !== PacketType.SESS_RECEIVE_MSG) throw new Error(`unexpected ${sent.packet.type}`);
  const received = fromCoreMessage(sent.packet.message, sent.packet.deliveryCount);
  if (received.constructor !== message.constructor) {
    throw new Error(`sent a ${message.constructor.name}, received a ${received.constructor.name}`);
  }
  return received as T;
}

/** A core message after a SESS_SEND frame's encode and decode. */
export function throughWire(core: CoreMessage): CoreMessage {
  const frame = decodeFrame(
    encodePacket(5, { type: PacketType.SESS_SEND, message: core, requiresResponse: true }),
  );
  if (frame.packet.type !== PacketType.SESS_SEND) throw new Error(`unexpected ${frame.packet.type}`);
  return frame.packet.message;
}

/**
 * A received message of core `type` whose body is exactly `body` (what a HornetQ peer sent, or a
 * corrupt body), after `configure` has set anything else on the core message.
 */
export function receivedWithBody(
  type: number,
  body: Buffer,
  configure: (core: CoreMessage) => void = () => {},
): HornetQMessage {
  const core = new CoreMessage();
  core.type = type;
  core.body = body;
  configure(core);
  return fromCoreMessage(throughWire(core), 1);
}
