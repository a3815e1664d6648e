/**
 * The `code` a JMS layer error carries when nothing beneath gave it one. A JMSException made for a
 * core failure carries HornetQ's name instead (`OBJECT_CLOSED`, `SECURITY_EXCEPTION`...), and one
 * given to an ExceptionListener `FAILOVER` or `DISCONNECT`: the same string as getErrorCode().
 */
export const JmsErrorCode = {
  JMSException: 'ERR_JMS',
  IllegalStateException: 'ERR_JMS_ILLEGAL_STATE',
  InvalidClientIDException: 'ERR_JMS_INVALID_CLIENT_ID',
  InvalidDestinationException: 'ERR_JMS_INVALID_DESTINATION',
  InvalidSelectorException: 'ERR_JMS_INVALID_SELECTOR',
  JMSSecurityException: 'ERR_JMS_SECURITY',
  MessageEOFException: 'ERR_JMS_MESSAGE_EOF',
  MessageFormatException: 'ERR_JMS_MESSAGE_FORMAT',
  MessageNotReadableException: 'ERR_JMS_MESSAGE_NOT_READABLE',
  MessageNotWriteableException: 'ERR_JMS_MESSAGE_NOT_WRITEABLE',
  ResourceAllocationException: 'ERR_JMS_RESOURCE_ALLOCATION',
  TransactionInProgressException: 'ERR_JMS_TRANSACTION_IN_PROGRESS',
  TransactionRolledBackException: 'ERR_JMS_TRANSACTION_ROLLED_BACK',
  // JMS 2.0's unchecked twins, which JMSContext, JMSProducer and JMSConsumer throw.
  JMSRuntimeException: 'ERR_JMS_RUNTIME',
  IllegalStateRuntimeException: 'ERR_JMS_ILLEGAL_STATE_RUNTIME',
  InvalidClientIDRuntimeException: 'ERR_JMS_INVALID_CLIENT_ID_RUNTIME',
  InvalidDestinationRuntimeException: 'ERR_JMS_INVALID_DESTINATION_RUNTIME',
  InvalidSelectorRuntimeException: 'ERR_JMS_INVALID_SELECTOR_RUNTIME',
  JMSSecurityRuntimeException: 'ERR_JMS_SECURITY_RUNTIME',
  MessageFormatRuntimeException: 'ERR_JMS_MESSAGE_FORMAT_RUNTIME',
  MessageNotWriteableRuntimeException: 'ERR_JMS_MESSAGE_NOT_WRITEABLE_RUNTIME',
  ResourceAllocationRuntimeException: 'ERR_JMS_RESOURCE_ALLOCATION_RUNTIME',
  TransactionInProgressRuntimeException: 'ERR_JMS_TRANSACTION_IN_PROGRESS_RUNTIME',
  TransactionRolledBackRuntimeException: 'ERR_JMS_TRANSACTION_ROLLED_BACK_RUNTIME',
  /** NumberFormatException (not a JMSException): a value that does not convert to a number type. */
  NumberFormatException: 'ERR_NUMBER_FORMAT',
} as const;

export type JmsExceptionClassName = Exclude<keyof typeof JmsErrorCode, 'NumberFormatException'>;
