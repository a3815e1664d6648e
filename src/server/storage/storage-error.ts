import { brandError, hasBrand } from '../../lang/brand';
import { ServerErrorCode } from '../server-error-code';

/**
 * The broker's data cannot be used: a server.lock it cannot open or lock, a journal record or page
 * file that does not read back, a directory that is missing. The broker does not start on it; the
 * message names the file or record.
 */
export class StorageError extends Error {
  static readonly brand: string = 'StorageError';
  readonly code = ServerErrorCode.STORAGE;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    brandError(this, new.target);
  }

  static is(value: unknown): value is StorageError {
    return hasBrand(value, StorageError);
  }
}
