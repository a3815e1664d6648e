import { type CoreMessage, MessageType } from '../../core/protocol/core-message';
import { MessageFormatException } from '../exceptions';
import { HornetQBytesMessage } from './hornetq-bytes-message';
import { HornetQMapMessage } from './hornetq-map-message';
import { HornetQMessage } from './hornetq-message';
import { HornetQObjectMessage } from './hornetq-object-message';
import { HornetQStreamMessage } from './hornetq-stream-message';
import { HornetQTextMessage } from './hornetq-text-message';

/**
 * The JMS message for a received core message, its class chosen by the core type number alone
 * (never by a name from the wire); an unknown type is a MessageFormatException. The message wraps
 * a copy of `core`, its properties and body are read-only, and JMSRedelivered is
 * `deliveryCount > 1`. The body is decoded on first read.
 */
export function fromCoreMessage(core: CoreMessage, deliveryCount: number): HornetQMessage {
  const message = create(core.type);
  message.initReceived(core.copy(), deliveryCount);
  return message;
}

function create(type: number): HornetQMessage {
  switch (type) {
    case MessageType.DEFAULT:
      return new HornetQMessage();
    case MessageType.TEXT:
      return new HornetQTextMessage();
    case MessageType.BYTES:
      return new HornetQBytesMessage();
    case MessageType.MAP:
      return new HornetQMapMessage();
    case MessageType.STREAM:
      return new HornetQStreamMessage();
    case MessageType.OBJECT:
      return new HornetQObjectMessage();
    default:
      throw new MessageFormatException(`unknown message type ${type}`);
  }
}
