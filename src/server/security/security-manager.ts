/**
 * Who a session acts as once authenticated: the user's name and roles, never the password, so
 * that nothing kept for the session's lifetime holds a secret.
 */
export interface Principal {
  readonly user: string;
  readonly roles: ReadonlySet<string>;
}

/**
 * Checks credentials (HornetQ's HornetQSecurityManager). The broker uses the file-based one,
 * built from hornetq-users.xml, unless an embedding application supplies its own.
 */
export interface SecurityManager {
  /**
   * The principal `user` (null: the client gave no name) with `password` (null: none given) is,
   * or null when the credentials are not good. `source` is where the client connects from
   * (host:port), for the manager's own logging or policies. Must not reject for bad credentials;
   * a rejection is a failure of the manager itself, and the broker refuses the login.
   */
  authenticate(user: string | null, password: string | null, source: string): Promise<Principal | null>;
}
