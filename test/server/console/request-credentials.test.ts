import { basicCredentials, cookieOf } from '../../../src/server/console/request-credentials';

const basic = (text: string): string => `Basic ${Buffer.from(text).toString('base64')}`;

describe('cookieOf', () => {
  it('finds the named cookie among others, and only it', () => {
    expect(cookieOf('a=1; hornetq-console-session=abc; b=2', 'hornetq-console-session')).toBe('abc');
    expect(cookieOf('xhornetq-console-session=abc', 'hornetq-console-session')).toBeUndefined();
    expect(cookieOf(undefined, 'x')).toBeUndefined();
    expect(cookieOf('=x; y', 'y')).toBeUndefined();
  });
});

describe('basicCredentials', () => {
  it('splits user and password at the first colon (a password may hold colons)', () => {
    expect(basicCredentials(basic('alice:s3:cr:t'))).toEqual({ user: 'alice', password: 's3:cr:t' });
    expect(basicCredentials(basic('alice:'))).toEqual({ user: 'alice', password: '' });
    expect(basicCredentials(undefined)).toBeNull();
  });

  it('refuses another scheme, a value without a colon and overlong credentials with a 401', () => {
    for (const header of ['Bearer abc', 'Basic', basic('alice'), basic(`${'u'.repeat(1025)}:p`)])
      expect(() => basicCredentials(header)).toThrow(expect.objectContaining({ status: 401 }));
  });
});
