export type { BodyOf, BodyType } from './body-type';
export { fromCoreMessage } from './from-core-message';
export { toHornetQMessage } from './foreign-message';
export { HornetQBytesMessage } from './hornetq-bytes-message';
export { HornetQMapMessage } from './hornetq-map-message';
export { HornetQMessage, type Acknowledger } from './hornetq-message';
export { HornetQObjectMessage, MAX_OBJECT_DEPTH } from './hornetq-object-message';
export { HornetQStreamMessage } from './hornetq-stream-message';
export { HornetQTextMessage } from './hornetq-text-message';
export {
  DeliveryMode,
  Message,
  type BytesMessage,
  type MapMessage,
  type ObjectMessage,
  type StreamMessage,
  type TextMessage,
} from './message';
export {
  isBytesMessage,
  isMapMessage,
  isMessage,
  isObjectMessage,
  isStreamMessage,
  isTextMessage,
} from './message-guards';
export { MessageProperty } from './property-names';
