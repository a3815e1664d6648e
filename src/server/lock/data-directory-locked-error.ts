import { brandError, hasBrand } from '../../lang/brand';
import { ServerErrorCode } from '../server-error-code';
import { describeHolder, type LockHolder } from './lock-holder';

/**
 * Another broker holds this data directory: two live brokers on one journal lose each other's
 * messages, so the second does not start. The message is one line naming the directory and the
 * holder as it wrote itself down (null if it has not yet, or its line is damaged).
 */
export class DataDirectoryLockedError extends Error {
  static readonly brand: string = 'DataDirectoryLockedError';
  readonly code = ServerErrorCode.DATA_DIRECTORY_LOCKED;

  constructor(
    /** The journal directory, whose server.lock is held. */
    readonly directory: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      `the data directory ${directory} is in use by another broker (${holder === null ? 'one that has not written down who it is' : describeHolder(holder)}): ` +
        'one live broker per directory; stop that one or give this one another data directory',
    );
    brandError(this, new.target);
  }

  static is(value: unknown): value is DataDirectoryLockedError {
    return hasBrand(value, DataDirectoryLockedError);
  }
}
