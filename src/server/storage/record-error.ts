import { StorageError } from './storage-error';

/** A journal record the storage cannot read: which journal, which record, and why (broker start stops). */
export function recordError(
  journal: 'bindings' | 'message',
  id: number,
  userType: number,
  cause: unknown,
): StorageError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StorageError(`${journal} journal: record ${id} (type ${userType}) cannot be read: ${reason}`, {
    cause,
  });
}
