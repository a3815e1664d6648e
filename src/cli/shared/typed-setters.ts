import { PropertyKind, type TypedValue } from '../../core/protocol';
import type { HornetQMapMessage, HornetQMessage } from '../../jms';

/** Sets a property with the type it was given (through JMS's typed setter, which checks the name). */
export function setTypedProperty(message: HornetQMessage, name: string, typed: TypedValue): void {
  switch (typed.kind) {
    case PropertyKind.BOOLEAN:
      return message.setBooleanProperty(name, typed.value);
    case PropertyKind.BYTE:
      return message.setByteProperty(name, typed.value);
    case PropertyKind.SHORT:
      return message.setShortProperty(name, typed.value);
    case PropertyKind.INT:
      return message.setIntProperty(name, typed.value);
    case PropertyKind.LONG:
      return message.setLongProperty(name, typed.value);
    case PropertyKind.FLOAT:
      return message.setFloatProperty(name, typed.value);
    case PropertyKind.DOUBLE:
      return message.setDoubleProperty(name, typed.value);
    default:
      return message.setObjectProperty(name, typed.value);
  }
}

/** Sets a map message's entry with the type it was given. */
export function setTypedMapEntry(message: HornetQMapMessage, name: string, typed: TypedValue): void {
  switch (typed.kind) {
    case PropertyKind.BOOLEAN:
      return message.setBoolean(name, typed.value);
    case PropertyKind.BYTE:
      return message.setByte(name, typed.value);
    case PropertyKind.SHORT:
      return message.setShort(name, typed.value);
    case PropertyKind.INT:
      return message.setInt(name, typed.value);
    case PropertyKind.LONG:
      return message.setLong(name, typed.value);
    case PropertyKind.FLOAT:
      return message.setFloat(name, typed.value);
    case PropertyKind.DOUBLE:
      return message.setDouble(name, typed.value);
    default:
      return message.setObject(name, typed.value);
  }
}
