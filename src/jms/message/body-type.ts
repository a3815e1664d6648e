/**
 * The type a message body is asked for in JMS 2.0's getBody / isBodyAssignableTo and
 * JMSConsumer.receiveBody. Java passes a Class (`getBody(String.class)`); here the constructor
 * of the JavaScript type plays that part: `getBody(String)`, `getBody(Buffer)`, `getBody(Map)`,
 * `getBody(Object)`. A constructor is a real value that can be checked at run time, as the Class
 * is, and TypeScript infers the result from it (`getBody(String)` is a `string | null` with no
 * cast), where a string tag ('text') would need a second, parallel vocabulary of names.
 *
 * What each message kind's body is assignable to (JMS 2.0 §3.11.4, as HornetQ 2.4 decides):
 * | TextMessage   | String, Object                                                        |
 * | BytesMessage  | Buffer, Uint8Array, Object (the whole body, a copy)                   |
 * | MapMessage    | Map, Object (a Map of name → value, as getObject reads each entry)    |
 * | ObjectMessage | Object; else what the value is: String, Number, Boolean, Array        |
 * | StreamMessage | nothing                                                               |
 * | Message       | anything (it has no body: getBody gives null)                         |
 * A message without a body (null text, an empty map, no object) is assignable to anything and
 * its body is null; an empty BytesMessage, as in HornetQ, still only to the byte types.
 */
export type BodyType =
  | StringConstructor
  | BufferConstructor
  | Uint8ArrayConstructor
  | MapConstructor
  | ObjectConstructor
  | NumberConstructor
  | BooleanConstructor
  | ArrayConstructor;

/** The body's JavaScript type for a BodyType. */
export type BodyOf<T extends BodyType> = T extends StringConstructor
  ? string
  : T extends BufferConstructor
    ? Buffer
    : T extends Uint8ArrayConstructor
      ? Uint8Array
      : T extends MapConstructor
        ? Map<string, unknown>
        : T extends NumberConstructor
          ? number
          : T extends BooleanConstructor
            ? boolean
            : T extends ArrayConstructor
              ? unknown[]
              : unknown;

const NAMES = new Map<unknown, string>([
  [String, 'String'],
  [Buffer, 'Buffer'],
  [Uint8Array, 'Uint8Array'],
  [Map, 'Map'],
  [Object, 'Object'],
  [Number, 'Number'],
  [Boolean, 'Boolean'],
  [Array, 'Array'],
]);

/** The type's name for messages; a value that is no BodyType is the caller's error (TypeError). */
export function bodyTypeName(type: unknown): string {
  const name = NAMES.get(type);
  if (name === undefined) {
    const given = typeof type === 'function' ? `function ${type.name || '(anonymous)'}` : String(type);
    throw new TypeError(
      `a body type must be one of ${[...NAMES.values()].join(', ')} (the constructor itself), got ${given}`,
    );
  }
  return name;
}

/** Whether a body value (an ObjectMessage's object) is of the type, as Java's Class.isInstance. */
export function isBodyValueOf(value: unknown, type: BodyType): boolean {
  switch (type as unknown) {
    case Object:
      return true;
    case String:
      return typeof value === 'string';
    case Number:
      return typeof value === 'number';
    case Boolean:
      return typeof value === 'boolean';
    case Array:
      return Array.isArray(value);
    default:
      return false;
  }
}
