import { MessageEOFException } from '../exceptions';
import { HornetQBytesMessage } from './hornetq-bytes-message';
import { HornetQMapMessage } from './hornetq-map-message';
import { HornetQMessage } from './hornetq-message';
import { HornetQObjectMessage } from './hornetq-object-message';
import { HornetQStreamMessage } from './hornetq-stream-message';
import { HornetQTextMessage } from './hornetq-text-message';
import type { BytesMessage, MapMessage, Message, ObjectMessage, StreamMessage, TextMessage } from './message';
import { MessageProperty } from './property-names';

const CHUNK_BYTES = 64 * 1024;

/**
 * A message of ours with the same headers, properties and body as `message`, which may come from
 * another JMS implementation (JMS 1.1 §3.12: a provider must send foreign messages). Our own
 * messages are returned as they are. The body type is recognised by the contract's methods;
 * reading a foreign Bytes or Stream body calls its reset(), as HornetQ does. Property values are
 * re-typed from JavaScript values (setObjectProperty's rules), since a foreign message exposes no
 * Java types.
 */
export function toHornetQMessage(message: Message): HornetQMessage {
  if (message instanceof HornetQMessage) return message;
  const copy = copyBody(message);
  copy.setJMSCorrelationID(message.getJMSCorrelationID());
  copy.setJMSType(message.getJMSType());
  copy.setJMSReplyTo(message.getJMSReplyTo());
  copy.setJMSDestination(message.getJMSDestination());
  copy.setJMSDeliveryMode(message.getJMSDeliveryMode());
  copy.setJMSPriority(message.getJMSPriority());
  copy.setJMSExpiration(message.getJMSExpiration());
  copy.setJMSTimestamp(message.getJMSTimestamp());
  const id = message.getJMSMessageID();
  if (id === null || id.startsWith('ID:')) copy.setJMSMessageID(id);
  copy.setJMSRedelivered(message.getJMSRedelivered());
  for (const name of message.getPropertyNames()) {
    if (name !== MessageProperty.JMSX_DELIVERY_COUNT)
      copy.setObjectProperty(name, message.getObjectProperty(name));
  }
  return copy;
}

function copyBody(message: Message): HornetQMessage {
  if (has<TextMessage>(message, 'getText')) return new HornetQTextMessage(message.getText());
  if (has<MapMessage>(message, 'getMapNames')) {
    const copy = new HornetQMapMessage();
    for (const name of message.getMapNames()) copy.setObject(name, message.getObject(name));
    return copy;
  }
  if (has<BytesMessage>(message, 'getBodyLength')) {
    const copy = new HornetQBytesMessage();
    message.reset();
    const chunk = new Uint8Array(CHUNK_BYTES);
    for (let count = message.readBytes(chunk); count !== -1; count = message.readBytes(chunk)) {
      copy.writeBytes(chunk, 0, count);
    }
    return copy;
  }
  if (has<StreamMessage>(message, 'readObject')) {
    const copy = new HornetQStreamMessage();
    message.reset();
    for (;;) {
      let value: unknown;
      try {
        value = message.readObject();
      } catch (error) {
        if (MessageEOFException.is(error)) break;
        throw error;
      }
      copy.writeObject(value);
    }
    return copy;
  }
  if (has<ObjectMessage>(message, 'getObject')) return new HornetQObjectMessage(message.getObject());
  return new HornetQMessage();
}

function has<T extends Message>(message: Message, method: keyof T): message is T {
  return typeof (message as unknown as Record<PropertyKey, unknown>)[method] === 'function';
}
