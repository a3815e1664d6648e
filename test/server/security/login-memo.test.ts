import { LoginMemo } from '../../../src/server/security/login-memo';
import { OPEN_GUARD, type SessionGuard } from '../../../src/server/security/session-guard';

/** A connection's last good login, repeated within its lifetime under the same users, is recalled. */
describe('LoginMemo', () => {
  const guard: SessionGuard = { ...OPEN_GUARD, user: 'bob' };
  let now = 1_000;
  const memo = (): LoginMemo => new LoginMemo(10_000, () => now);

  test('the same user and password, soon after and under the same users: recalled', () => {
    const m = memo();
    m.remember('bob', 's3cret', 0, guard);
    now += 9_999;
    expect(m.recall('bob', 's3cret', 0)).toBe(guard);
  });

  test('another password, another user, no password, or an empty one: not recalled', () => {
    const m = memo();
    m.remember('bob', 's3cret', 0, guard);
    expect(m.recall('bob', 's3cret!', 0)).toBeNull();
    expect(m.recall('alice', 's3cret', 0)).toBeNull();
    expect(m.recall('bob', null, 0)).toBeNull();
    const empty = memo();
    empty.remember('bob', null, 0, guard);
    expect(empty.recall('bob', '', 0)).toBeNull();
    expect(empty.recall('bob', null, 0)).toBe(guard);
  });

  test('after its lifetime, or once the users were replaced: forgotten', () => {
    const m = memo();
    m.remember('bob', 's3cret', 0, guard);
    expect(m.recall('bob', 's3cret', 1)).toBeNull();
    expect(m.recall('bob', 's3cret', 0)).toBeNull();
    const late = memo();
    late.remember('bob', 's3cret', 0, guard);
    now += 10_000;
    expect(late.recall('bob', 's3cret', 0)).toBeNull();
  });

  test('keeps no password: nothing in it holds the password text', () => {
    const m = memo();
    m.remember('bob', 'a-long-distinctive-password', 0, guard);
    const seen = JSON.stringify(m, (_key, value: unknown) =>
      Buffer.isBuffer(value) ? value.toString('latin1') : value,
    );
    expect(seen).not.toContain('a-long-distinctive-password');
  });
});
