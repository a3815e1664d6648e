import { mayBrowse, rightsOf } from '../../../src/server/console/console-rights';
import { MANAGEMENT_ADDRESS, type Permission } from '../../../src/server/security/permission';
import { principalGuard } from '../../../src/server/security/session-guard';
import { SecurityStore } from '../../../src/server/security/security-store';

const ORDERS = 'jms.queue.orders';

/** The guard of a user with `roles`, under settings granting per match what the table says. */
function guardOf(roles: string[], grants: Record<string, Partial<Record<Permission, string[]>>>) {
  const store = new SecurityStore(
    Object.entries(grants).map(([match, permissions]) => ({
      match,
      permissions: new Map(Object.entries(permissions)) as Map<Permission, string[]>,
    })),
  );
  return principalGuard({ user: 'u', roles: new Set(roles) }, store);
}

describe('console rights', () => {
  it('views with consume on the management address, manages with manage (which implies view)', () => {
    const viewer = guardOf(['v'], { [MANAGEMENT_ADDRESS]: { consume: ['v'] } });
    expect(rightsOf(viewer, MANAGEMENT_ADDRESS)).toEqual({ view: true, manage: false });
    const manager = guardOf(['m'], { [MANAGEMENT_ADDRESS]: { manage: ['m'] } });
    expect(rightsOf(manager, MANAGEMENT_ADDRESS)).toEqual({ view: true, manage: true });
  });

  it('gives nothing for permissions elsewhere, even every one on the other addresses', () => {
    const app = guardOf(['a'], {
      'jms.#': { consume: ['a'], send: ['a'], manage: ['a'] },
      [MANAGEMENT_ADDRESS]: { send: ['a'] },
    });
    expect(rightsOf(app, MANAGEMENT_ADDRESS)).toEqual({ view: false, manage: false });
    expect(mayBrowse(app, MANAGEMENT_ADDRESS, ORDERS)).toBe(false);
  });

  it("lets a viewer read a queue's messages only with consume on the queue's address; a manager always", () => {
    const grants = {
      [MANAGEMENT_ADDRESS]: { consume: ['v', 'r'], manage: ['m'] },
      [ORDERS]: { consume: ['r'] },
    };
    expect(mayBrowse(guardOf(['v'], grants), MANAGEMENT_ADDRESS, ORDERS)).toBe(false);
    expect(mayBrowse(guardOf(['r'], grants), MANAGEMENT_ADDRESS, ORDERS)).toBe(true);
    expect(mayBrowse(guardOf(['r'], grants), MANAGEMENT_ADDRESS, 'jms.queue.audit')).toBe(false);
    expect(mayBrowse(guardOf(['m'], grants), MANAGEMENT_ADDRESS, ORDERS)).toBe(true);
    // consume on the queue without the view right reads nothing.
    expect(mayBrowse(guardOf(['x'], { [ORDERS]: { consume: ['x'] } }), MANAGEMENT_ADDRESS, ORDERS)).toBe(
      false,
    );
  });
});
