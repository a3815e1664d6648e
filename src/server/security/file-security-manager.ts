import { invalidValue } from '../../lang/argument-errors';
import { DEFAULT_HASH_OPTIONS, hashPassword, storedPasswordProblem, verifyPassword } from './password-hash';
import type { Principal, SecurityManager } from './security-manager';

/** One user as hornetq-users.xml declares it: the password as stored (a hash or plain text). */
export interface UserAccount {
  readonly name: string;
  readonly password: string;
  readonly roles: readonly string[];
}

/** The users of hornetq-users.xml: `<defaultuser>` (if any) is who a client giving no name is. */
export interface UserAccounts {
  readonly defaultUser: UserAccount | null;
  readonly users: readonly UserAccount[];
}

interface Account {
  readonly password: string;
  readonly principal: Principal;
}

/**
 * HornetQ's file-based security manager: users, passwords and roles from hornetq-users.xml.
 *
 * - A client that gives a user name is that user, with that user's password; a wrong password or
 *   an unknown name is refused, never retried as the default user.
 * - A client that gives no user name is the default user, if the file has one, and must give the
 *   default user's password: none at all only when that password is empty (password=""). HornetQ
 *   put the default user's name in place of a missing password, which let anyone in without a
 *   password to any account whose password was that name; nothing is substituted here.
 * - The default user can also log in by name, as in HornetQ.
 *
 * Immutable: a redeployed file makes a new manager.
 */
export class FileSecurityManager implements SecurityManager {
  private readonly accounts = new Map<string, Account>();
  private readonly defaultUser: string | null;
  /** An unknown name costs the same scrypt work as a known one, so timing tells no names apart. */
  private decoy: Promise<string> | null = null;

  constructor(accounts: UserAccounts) {
    const all = accounts.defaultUser === null ? accounts.users : [accounts.defaultUser, ...accounts.users];
    for (const account of all) {
      if (this.accounts.has(account.name)) throw invalidValue(`user '${account.name}' is declared twice`);
      const problem = storedPasswordProblem(account.password);
      if (problem !== null) throw invalidValue(`the password of user '${account.name}' ${problem}`);
      const principal: Principal = Object.freeze({
        user: account.name,
        roles: new Set(account.roles),
      });
      this.accounts.set(account.name, { password: account.password, principal });
    }
    this.defaultUser = accounts.defaultUser?.name ?? null;
  }

  async authenticate(
    user: string | null,
    password: string | null,
    _source: string,
  ): Promise<Principal | null> {
    const name = user ?? this.defaultUser;
    const account = name === null ? undefined : this.accounts.get(name);
    if (account === undefined) {
      await verifyPassword(await this.decoyHash(), password);
      return null;
    }
    return (await verifyPassword(account.password, password)) ? account.principal : null;
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword('', DEFAULT_HASH_OPTIONS);
    return this.decoy;
  }
}
