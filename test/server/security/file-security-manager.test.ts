import { FileSecurityManager, type UserAccounts } from '../../../src/server/security/file-security-manager';
import { hashPassword } from '../../../src/server/security/password-hash';

const FAST = { N: 1024, r: 8, p: 1 };
const SOURCE = '127.0.0.1:40000';

async function accounts(defaultPassword = 'guest'): Promise<UserAccounts> {
  return {
    defaultUser: { name: 'guest', password: defaultPassword, roles: ['guest'] },
    users: [
      { name: 'bob', password: await hashPassword('bob-secret', FAST), roles: ['admin', 'guest'] },
      { name: 'carol', password: 'plain-carol', roles: ['reader'] },
      { name: 'dave', password: '', roles: ['open'] },
    ],
  };
}

describe('FileSecurityManager', () => {
  test('a named user with the right password gets its name and roles, never the password', async () => {
    const manager = new FileSecurityManager(await accounts());
    const bob = await manager.authenticate('bob', 'bob-secret', SOURCE);
    expect(bob).toEqual({ user: 'bob', roles: new Set(['admin', 'guest']) });
    expect(Object.keys(bob ?? {})).toEqual(['user', 'roles']);
    expect(await manager.authenticate('carol', 'plain-carol', SOURCE)).toEqual({
      user: 'carol',
      roles: new Set(['reader']),
    });
  });

  test('a wrong password or an unknown name is refused, never retried as the default user', async () => {
    const manager = new FileSecurityManager(await accounts());
    expect(await manager.authenticate('bob', 'wrong', SOURCE)).toBeNull();
    expect(await manager.authenticate('bob', 'guest', SOURCE)).toBeNull();
    expect(await manager.authenticate('bob', null, SOURCE)).toBeNull();
    expect(await manager.authenticate('carol', 'plain-carol ', SOURCE)).toBeNull();
    expect(await manager.authenticate('mallory', 'guest', SOURCE)).toBeNull();
    expect(await manager.authenticate('mallory', null, SOURCE)).toBeNull();
    expect(await manager.authenticate('', 'guest', SOURCE)).toBeNull();
  });

  test('no user name: the default user, with its password; none only when that password is empty', async () => {
    const withPassword = new FileSecurityManager(await accounts('guest'));
    expect(await withPassword.authenticate(null, 'guest', SOURCE)).toEqual({
      user: 'guest',
      roles: new Set(['guest']),
    });
    // HornetQ let this in (a missing password became the default user's name, "guest").
    expect(await withPassword.authenticate(null, null, SOURCE)).toBeNull();
    expect(await withPassword.authenticate(null, 'wrong', SOURCE)).toBeNull();
    // The default user can log in by name as well.
    expect(await withPassword.authenticate('guest', 'guest', SOURCE)).toEqual({
      user: 'guest',
      roles: new Set(['guest']),
    });

    const anonymous = new FileSecurityManager(await accounts(''));
    expect(await anonymous.authenticate(null, null, SOURCE)).toEqual({
      user: 'guest',
      roles: new Set(['guest']),
    });
    expect(await anonymous.authenticate(null, '', SOURCE)).not.toBeNull();
    expect(await anonymous.authenticate(null, 'x', SOURCE)).toBeNull();
  });

  test("the quirk is not replicated: a user whose password is the default user's name needs it", async () => {
    const manager = new FileSecurityManager({
      defaultUser: { name: 'guest', password: 'guest', roles: ['guest'] },
      users: [{ name: 'admin', password: 'guest', roles: ['admin'] }],
    });
    expect(await manager.authenticate('admin', null, SOURCE)).toBeNull();
    expect(await manager.authenticate('admin', 'guest', SOURCE)).toEqual({
      user: 'admin',
      roles: new Set(['admin']),
    });
  });

  test('without a default user, a client that gives no name is refused', async () => {
    const manager = new FileSecurityManager({ ...(await accounts()), defaultUser: null });
    expect(await manager.authenticate(null, null, SOURCE)).toBeNull();
    expect(await manager.authenticate(null, 'guest', SOURCE)).toBeNull();
    expect(await manager.authenticate(null, '', SOURCE)).toBeNull();
  });

  test('an empty stored password lets its user in with none or an empty one', async () => {
    const manager = new FileSecurityManager(await accounts());
    expect(await manager.authenticate('dave', null, SOURCE)).toEqual({
      user: 'dave',
      roles: new Set(['open']),
    });
    expect(await manager.authenticate('dave', '', SOURCE)).not.toBeNull();
    expect(await manager.authenticate('dave', 'x', SOURCE)).toBeNull();
  });

  test('refuses accounts it cannot check: a name twice, a malformed hash (without quoting it)', () => {
    expect(
      () =>
        new FileSecurityManager({
          defaultUser: { name: 'guest', password: 'a', roles: ['g'] },
          users: [{ name: 'guest', password: 'b', roles: ['g'] }],
        }),
    ).toThrow("user 'guest' is declared twice");
    let message = '';
    try {
      new FileSecurityManager({
        defaultUser: null,
        users: [{ name: 'x', password: 'scrypt:N=3:c2VjcmV0', roles: ['r'] }],
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^the password of user 'x' begins with 'scrypt:' but is not a hash/);
    expect(message).not.toContain('c2VjcmV0');
  });
});
