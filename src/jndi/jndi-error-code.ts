/** The `code` of the naming and configuration errors. */
export const JndiErrorCode = {
  /** NamingException: a name that cannot be bound (a temporary destination, under an object). */
  NAMING: 'ERR_NAMING',
  /** NameNotFoundException: nothing is bound under the name. */
  NAME_NOT_FOUND: 'ERR_NAME_NOT_FOUND',
  /** NameAlreadyBoundException: something is bound under the name already. */
  NAME_ALREADY_BOUND: 'ERR_NAME_ALREADY_BOUND',
  /** NamingException from a checked lookup: the name holds an object of another class. */
  NAME_WRONG_TYPE: 'ERR_NAME_WRONG_TYPE',
  /** ConfigurationException: a configuration file (or configuration given in code) that cannot be used. */
  CONFIGURATION: 'ERR_CONFIGURATION',
} as const;

export type JndiErrorCodeName = (typeof JndiErrorCode)[keyof typeof JndiErrorCode];
