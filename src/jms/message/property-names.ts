import { invalidArgType, invalidName } from '../../lang/argument-errors';
import { MessageHeader } from '../../core/protocol/message-header';

/**
 * Names of the properties the JMS layer maps headers and HornetQ features onto. The selector
 * engine and the broker read these names, so they are fixed.
 */
export const MessageProperty = {
  /** JMSCorrelationID header: a STRING property (BYTES when set with setJMSCorrelationIDAsBytes). */
  CORRELATION_ID: 'JMSCorrelationID',
  /** JMSReplyTo header: a STRING property holding the core address, e.g. 'jms.queue.X'. */
  REPLY_TO: 'JMSReplyTo',
  /** JMSType header: a STRING property. */
  TYPE: 'JMSType',
  /** Read-only, derived from the delivery count of a received message. */
  JMSX_DELIVERY_COUNT: 'JMSXDeliveryCount',
  /** The JMS name of the group id, stored under GROUP_ID. */
  JMSX_GROUP_ID: 'JMSXGroupID',
  /** Core group id: messages with the same value go to the same consumer of a queue. */
  GROUP_ID: MessageHeader.GROUP_ID,
  /** Absolute epoch ms before which the broker does not deliver the message (LONG). */
  SCHEDULED_DELIVERY_TIME: MessageHeader.SCHEDULED_DELIVERY_TIME,
  /** Duplicate-detection id (STRING): the broker drops a second message with the same id. */
  DUPLICATE_ID: MessageHeader.DUPLICATE_DETECTION_ID,
  /**
   * On an ObjectMessage of ours, how its body is encoded ('json'): a vendor ('JMS_') property a
   * Java application that cannot read the body can look at; HornetQ has no such property.
   */
  OBJECT_ENCODING: 'JMS_HQJS_OBJECT_ENCODING',
} as const;

/**
 * Properties of the provider's own, hidden from getPropertyNames: '_HQ_…' (HornetQ's features),
 * '__HQ_…' (connection ids and the like) and our ObjectMessage's encoding.
 */
export function isInternalProperty(name: string): boolean {
  return name.startsWith('_HQ_') || name.startsWith('__HQ_') || name === MessageProperty.OBJECT_ENCODING;
}

/**
 * JMS header names stored as properties (JMSCorrelationID, JMSType, JMSReplyTo, …): names that
 * start with 'JMS' but are neither JMSX nor vendor ('JMS_') properties. They are headers, so they
 * are never listed as properties and clearProperties keeps them.
 */
export function isHeaderProperty(name: string): boolean {
  return name.startsWith('JMS') && !name.startsWith('JMSX') && !name.startsWith('JMS_');
}

/** Selector keywords that cannot name a property (JMS 1.1 §3.8.1.1); compared case-insensitively. */
const RESERVED = new Set([
  'NULL',
  'TRUE',
  'FALSE',
  'NOT',
  'AND',
  'OR',
  'BETWEEN',
  'LIKE',
  'IN',
  'IS',
  'ESCAPE',
]);

/** Java identifier rules (Character.isJavaIdentifierStart / isJavaIdentifierPart). */
const IDENTIFIER = /^[\p{L}\p{Nl}\p{Sc}\p{Pc}][\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mn}\p{Mc}]*$/u;

/**
 * Checks a property name for a setter. Problems with the name are the caller's programming error,
 * Java's IllegalArgumentException, so they throw TypeError (not a JMSException): a null or empty
 * name, a name that is not a Java identifier, a selector keyword, or HornetQ's reserved
 * 'JMS_HORNETQ' prefix.
 */
export function checkPropertyName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw invalidArgType(`a property name must be a non-empty string, got ${describe(name)}`);
  }
  if (!IDENTIFIER.test(name)) {
    throw invalidName(
      `property name '${name}' is not a valid identifier (a letter, '_' or '$', then letters, digits, '_' or '$')`,
    );
  }
  if (RESERVED.has(name.toUpperCase())) {
    throw invalidName(`property name '${name}' is reserved by the selector syntax`);
  }
  if (name.startsWith('JMS_HORNETQ')) {
    throw invalidName(`property name '${name}' is illegal: the prefix JMS_HORNETQ is reserved`);
  }
}

/** Checks a MapMessage entry name: any non-empty string (Java's IllegalArgumentException → TypeError). */
export function checkMapName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw invalidArgType(`a map entry name must be a non-empty string, got ${describe(name)}`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
