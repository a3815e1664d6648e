import type { BrokerConfiguration } from '../../src';
import { FileSecurityManager } from '../../src/server/security/file-security-manager';
import { PERMISSIONS, type Permission } from '../../src/server/security/permission';
import type { SecuritySetting } from '../../src/server/security/security-store';

/**
 * Brokers with security on, for the tests whose subject it is: users with plain-text passwords
 * (hashing is tested in test/server/security and would only slow these down), settings built from
 * short tables, and one administrator who may do everything everywhere, so that a test can set up
 * what it needs whatever the settings take away from the users under test.
 */

export interface TestUser {
  readonly name: string;
  readonly password: string;
  readonly roles: readonly string[];
}

/** The role every setting made by setting() grants all seven permissions. */
export const ADMIN_ROLE = 'admin';
export const ADMIN: TestUser = { name: 'admin', password: 'admin-pw', roles: [ADMIN_ROLE] };
/**
 * HornetQ's `<defaultuser>`: who a client giving no user name is. Its password is empty, so an
 * anonymous client does log in (as guest), and what it may not do is decided by permissions.
 */
export const GUEST: TestUser = { name: 'guest', password: '', roles: ['guest'] };

export type Grants = Partial<Record<Permission, readonly string[]>>;

/**
 * A `<security-setting>` for `match`: `grants`, plus every permission for the admin role (a more
 * specific match takes away whatever it does not grant, the administrator's permissions too).
 */
export function setting(match: string, grants: Grants = {}): SecuritySetting {
  const permissions = new Map<Permission, string[]>();
  for (const permission of PERMISSIONS)
    permissions.set(permission, [ADMIN_ROLE, ...(grants[permission] ?? [])]);
  return { match, permissions };
}

/**
 * What a broker needs for security on: the users (admin and guest added), the settings, and a
 * login throttle that never slows these tests, which log in wrongly on purpose (the throttle has
 * tests of its own).
 */
export function securedBrokerConfig(
  users: readonly TestUser[],
  settings: readonly SecuritySetting[],
): Partial<BrokerConfiguration> {
  return {
    securityEnabled: true,
    securityManager: new FileSecurityManager({ defaultUser: GUEST, users: [ADMIN, ...users] }),
    securitySettings: settings,
    loginThrottle: { freeFailures: 1_000_000 },
  };
}
