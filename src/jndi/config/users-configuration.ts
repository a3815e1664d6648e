import type { UserAccount, UserAccounts } from '../../server/security/file-security-manager';
import type { ConfigurationProblem } from '../configuration-exception';

/** A user of hornetq-users.xml, with the line that declares it (the password as stored). */
export interface UserDefinition extends UserAccount {
  readonly line: number;
}

/** hornetq-users.xml, read: what a FileSecurityManager is built from. */
export interface UsersConfiguration extends UserAccounts {
  readonly file: string;
  readonly defaultUser: UserDefinition | null;
  /** The `<user>` elements in document order (the default user is not among them). */
  readonly users: readonly UserDefinition[];
  readonly warnings: readonly ConfigurationProblem[];
}
