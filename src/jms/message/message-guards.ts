import { hasBrand } from '../../lang/brand';
import { HornetQBytesMessage } from './hornetq-bytes-message';
import { HornetQMapMessage } from './hornetq-map-message';
import { HornetQMessage } from './hornetq-message';
import { HornetQObjectMessage } from './hornetq-object-message';
import { HornetQStreamMessage } from './hornetq-stream-message';
import { HornetQTextMessage } from './hornetq-text-message';

// Brand checks, not instanceof: a message received through one copy of this package (a library's)
// is recognised by another copy's guards (the application's).

/** Any message of this package, whatever its body: JMS's `instanceof Message`. */
export function isMessage(value: unknown): value is HornetQMessage {
  return hasBrand(value, HornetQMessage);
}

export function isTextMessage(value: unknown): value is HornetQTextMessage {
  return hasBrand(value, HornetQTextMessage);
}

export function isBytesMessage(value: unknown): value is HornetQBytesMessage {
  return hasBrand(value, HornetQBytesMessage);
}

export function isMapMessage(value: unknown): value is HornetQMapMessage {
  return hasBrand(value, HornetQMapMessage);
}

export function isObjectMessage(value: unknown): value is HornetQObjectMessage {
  return hasBrand(value, HornetQObjectMessage);
}

export function isStreamMessage(value: unknown): value is HornetQStreamMessage {
  return hasBrand(value, HornetQStreamMessage);
}
