/**
 * Property names with a meaning to the broker and the clients: HornetQ's Message.HDR_* values, as
 * they travel on the wire. One list, so that the broker, the JMS layer and the selector agree.
 */
export const MessageHeader = {
  /** LONG, epoch ms: the message is not delivered before this time. */
  SCHEDULED_DELIVERY_TIME: '_HQ_SCHED_DELIVERY',
  /** STRING or BYTES: an address drops a second message with an id it has seen. */
  DUPLICATE_DETECTION_ID: '_HQ_DUPL_ID',
  /** STRING: every message of a group goes to one consumer of a queue (JMSXGroupID). */
  GROUP_ID: '_HQ_GROUP_ID',
  /** STRING: a last-value queue keeps only the newest message per value. */
  LAST_VALUE_NAME: '_HQ_LVQ_NAME',
  /** Set on copies moved to a dead-letter or expiry address. */
  ORIGINAL_ADDRESS: '_HQ_ORIG_ADDRESS',
  ORIGINAL_QUEUE: '_HQ_ORIG_QUEUE',
  ORIGINAL_MESSAGE_ID: '_HQ_ORIG_MESSAGE_ID',
  /** LONG, epoch ms: when the broker found the message expired (expiry copies only). */
  ACTUAL_EXPIRY_TIME: '_HQ_ACTUAL_EXPIRY',
  /**
   * LONG: the body bytes of a message delivered as a large one (in chunks), set on its head by
   * the server; HornetQ's Java client takes a large message's body size from it.
   */
  LARGE_BODY_SIZE: '_HQ_LARGE_SIZE',
  /** STRING: the connection a message was sent through (JMS noLocal subscriptions skip it). */
  CONNECTION_ID: '__HQ_CID',
} as const;
