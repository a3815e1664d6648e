/** The `code` of the broker's own errors (what it refuses to a client is a HornetQException). */
export const ServerErrorCode = {
  /** JournalCorruptionError: a journal file damaged before its tail; the broker does not start on it. */
  JOURNAL_CORRUPT: 'ERR_JOURNAL_CORRUPT',
  /** PageCorruptError: a page file holding something the page store did not write. */
  PAGE_CORRUPT: 'ERR_PAGE_CORRUPT',
  /** DataDirectoryLockedError: another live broker holds the journal directory's server.lock. */
  DATA_DIRECTORY_LOCKED: 'ERR_DATA_DIRECTORY_LOCKED',
  /** DataDamageError: journal or large-message files damaged or missing; the broker does not start on them. */
  DATA_DAMAGE: 'ERR_DATA_DAMAGE',
  /** StorageError: the broker's data cannot be used (server.lock, a journal record, a directory). */
  STORAGE: 'ERR_STORAGE',
} as const;
