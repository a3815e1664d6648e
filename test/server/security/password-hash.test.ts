import {
  DEFAULT_HASH_OPTIONS,
  hashPassword,
  HASH_LIMITS,
  isPasswordHash,
  storedPasswordProblem,
  verifyPassword,
} from '../../../src/server/security/password-hash';

/** The cheapest hash the limits allow, so that the tests stay fast. */
const FAST = { N: 1024, r: 8, p: 1 };

describe('password hashes', () => {
  test('a hash has the documented form, verifies its password and no other', async () => {
    const stored = await hashPassword('s3cret ✓', FAST);
    expect(stored).toMatch(/^scrypt:N=1024,r=8,p=1:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]{43}=$/);
    expect(isPasswordHash(stored)).toBe(true);
    expect(storedPasswordProblem(stored)).toBeNull();
    expect(await verifyPassword(stored, 's3cret ✓')).toBe(true);
    expect(await verifyPassword(stored, 's3cret')).toBe(false);
    expect(await verifyPassword(stored, 'S3cret ✓')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
    expect(await verifyPassword(stored, null)).toBe(false);
  });

  test('the same password hashes differently each time (a fresh salt)', async () => {
    const [a, b] = await Promise.all([hashPassword('pw', FAST), hashPassword('pw', FAST)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'pw')).toBe(true);
    expect(await verifyPassword(b, 'pw')).toBe(true);
  });

  test('the defaults are N=16384, r=8, p=1 with a 16-byte salt and a 32-byte key', async () => {
    expect(DEFAULT_HASH_OPTIONS).toEqual({ N: 16384, r: 8, p: 1, saltBytes: 16, keyBytes: 32 });
    const stored = await hashPassword('pw');
    expect(stored.startsWith('scrypt:N=16384,r=8,p=1:')).toBe(true);
    expect(await verifyPassword(stored, 'pw')).toBe(true);
  });

  test('a tampered hash matches nothing: key, salt or parameters changed', async () => {
    const stored = await hashPassword('pw', FAST);
    const [scheme, params, salt, key] = stored.split(':') as [string, string, string, string];
    const flip = (text: string): string => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    for (const tampered of [
      [scheme, params, salt, flip(key)],
      [scheme, params, flip(salt), key],
      [scheme, 'N=2048,r=8,p=1', salt, key],
      [scheme, 'N=1024,r=4,p=1', salt, key],
    ]) {
      expect(await verifyPassword(tampered.join(':'), 'pw')).toBe(false);
    }
  });

  test('malformed hashes are reported without quoting them, and match nothing', async () => {
    const salt = Buffer.alloc(16, 1).toString('base64');
    const key = Buffer.alloc(32, 2).toString('base64');
    const cases: Array<[string, RegExp]> = [
      ['scrypt:', /is not a hash of the form scrypt:N=<n>,r=<r>,p=<p>:<salt base64>:<key base64>/],
      [`scrypt:N=1024,r=8:${salt}:${key}`, /is not a hash of the form/],
      [`scrypt:N=1024,r=8,p=1:${salt}:${key}:extra`, /is not a hash of the form/],
      [`scrypt:N=1024,r=8,p=1:${salt.slice(1)}:${key}`, /not valid base64/],
      [`scrypt:N=1000,r=8,p=1:${salt}:${key}`, /N = 1000: it must be a power of two, at least 1024/],
      [`scrypt:N=512,r=8,p=1:${salt}:${key}`, /N = 512/],
      [`scrypt:N=1024,r=0,p=1:${salt}:${key}`, /r = 0: it must be 1\.\.32/],
      [`scrypt:N=1024,r=8,p=17:${salt}:${key}`, /p = 17: it must be 1\.\.16/],
      [
        `scrypt:N=1024,r=8,p=1:${Buffer.alloc(8).toString('base64')}:${key}`,
        /a salt of 8 bytes: it must be 16\.\.64/,
      ],
      [
        `scrypt:N=1024,r=8,p=1:${salt}:${Buffer.alloc(8).toString('base64')}`,
        /a key of 8 bytes: it must be 16\.\.64/,
      ],
    ];
    for (const [stored, message] of cases) {
      const problem = storedPasswordProblem(stored);
      expect(problem).toMatch(message);
      expect(problem).not.toContain(key);
      expect(await verifyPassword(stored, 'pw')).toBe(false);
    }
  });

  test('parameters are bounded: a stored hash cannot ask for gigabytes or minutes', async () => {
    const salt = Buffer.alloc(16, 1).toString('base64');
    const key = Buffer.alloc(32, 2).toString('base64');
    // 128·N·r = 1 GiB and 16 GiB: refused before scrypt runs (it would take seconds and the memory).
    expect(storedPasswordProblem(`scrypt:N=1048576,r=8,p=1:${salt}:${key}`)).toMatch(
      /128·N·r must be at most 67108864 bytes/,
    );
    expect(storedPasswordProblem(`scrypt:N=4194304,r=32,p=1:${salt}:${key}`)).toMatch(/128·N·r/);
    // 64 MiB of memory is allowed, but not 16 times that work over again.
    expect(storedPasswordProblem(`scrypt:N=65536,r=8,p=16:${salt}:${key}`)).toMatch(
      new RegExp(`N·r·p must be at most ${HASH_LIMITS.maxWork}`),
    );
    expect(storedPasswordProblem(`scrypt:N=4294967296,r=8,p=1:${salt}:${key}`)).toMatch(/128·N·r/);
    expect(storedPasswordProblem(`scrypt:N=4294967297,r=8,p=1:${salt}:${key}`)).toMatch(/power of two/);
    // Refused before scrypt runs: false, not a rejection from Node's memory limit.
    expect(await verifyPassword(`scrypt:N=1048576,r=8,p=1:${salt}:${key}`, 'pw')).toBe(false);
  });

  test('hashPassword refuses options outside the limits, naming them', async () => {
    await expect(hashPassword('pw', { N: 1000 })).rejects.toThrow(
      'invalid password hash options: N = 1000: it must be a power of two, at least 1024',
    );
    await expect(hashPassword('pw', { ...FAST, saltBytes: 4 })).rejects.toThrow(/a salt of 4 bytes/);
    await expect(hashPassword('pw', { N: 1048576 })).rejects.toThrow(/128·N·r/);
  });

  test("plain text (HornetQ's own) is compared exactly, empty included; null is the empty password", async () => {
    expect(isPasswordHash('guest')).toBe(false);
    expect(storedPasswordProblem('guest')).toBeNull();
    expect(await verifyPassword('guest', 'guest')).toBe(true);
    expect(await verifyPassword('guest', 'Guest')).toBe(false);
    expect(await verifyPassword('guest', 'guest ')).toBe(false);
    expect(await verifyPassword('guest', 'gues')).toBe(false);
    expect(await verifyPassword('guest', '')).toBe(false);
    // HornetQ's quirk put the default user's name in place of a missing password: not here.
    expect(await verifyPassword('guest', null)).toBe(false);
    expect(await verifyPassword('', null)).toBe(true);
    expect(await verifyPassword('', '')).toBe(true);
    expect(await verifyPassword('', 'x')).toBe(false);
    const long = 'x'.repeat(10_000);
    expect(await verifyPassword(long, long)).toBe(true);
    expect(await verifyPassword(long, `${long}y`)).toBe(false);
  });
});
