import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { invalidValue } from '../../lang/argument-errors';

/**
 * Stored passwords, as hornetq-users.xml holds them. HornetQ keeps them in plain text; we also
 * accept (and `hornetq user add` writes) an scrypt hash:
 *
 *     scrypt:N=16384,r=8,p=1:<salt, base64>:<derived key, base64>
 *
 * N (CPU/memory cost, a power of two), r (block size) and p (parallelisation) are scrypt's
 * parameters; the key is scrypt(password as UTF-8, not normalised, as HornetQ compares it; salt;
 * length of the key). Any other value is a
 * plain-text password, so a plain-text password cannot begin with `scrypt:`.
 */
export const PASSWORD_HASH_PREFIX = 'scrypt:';

export interface ScryptParameters {
  /** CPU/memory cost: a power of two. */
  readonly N: number;
  /** Block size. */
  readonly r: number;
  /** Parallelisation. */
  readonly p: number;
}

export interface HashOptions extends ScryptParameters {
  readonly saltBytes: number;
  readonly keyBytes: number;
}

/** 16 MiB and about 50 ms per check on a current CPU: OWASP's scrypt recommendation. */
export const DEFAULT_HASH_OPTIONS: Readonly<HashOptions> = Object.freeze({
  N: 16_384,
  r: 8,
  p: 1,
  saltBytes: 16,
  keyBytes: 32,
});

/**
 * What a stored hash may ask for, so that a file cannot make one check take minutes or allocate
 * gigabytes: memory 128·N·r bytes at most 64 MiB, work N·r·p at most 16 times the default's.
 * The lower bounds refuse hashes too weak to be worth storing.
 */
export const HASH_LIMITS = Object.freeze({
  minN: 1024,
  maxMemoryBytes: 64 * 1024 * 1024,
  maxWork: 16 * DEFAULT_HASH_OPTIONS.N * DEFAULT_HASH_OPTIONS.r * DEFAULT_HASH_OPTIONS.p,
  maxR: 32,
  maxP: 16,
  minSaltBytes: 16,
  maxSaltBytes: 64,
  minKeyBytes: 16,
  maxKeyBytes: 64,
});

/** A stored hash, read. */
interface ParsedHash extends ScryptParameters {
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** True when the stored value is a hash (in our scheme), false when it is a plain-text password. */
export function isPasswordHash(stored: string): boolean {
  return stored.startsWith(PASSWORD_HASH_PREFIX);
}

/** Hashes a password with a fresh random salt, in the scheme above. */
export async function hashPassword(password: string, options: Partial<HashOptions> = {}): Promise<string> {
  const resolved: HashOptions = { ...DEFAULT_HASH_OPTIONS, ...options };
  const problem = parametersProblem(resolved) ?? lengthProblem(resolved.saltBytes, resolved.keyBytes);
  if (problem !== null) throw invalidValue(`invalid password hash options: ${problem}`);
  const salt = randomBytes(resolved.saltBytes);
  const key = await derive(password, salt, resolved.keyBytes, resolved);
  const { N, r, p } = resolved;
  return `${PASSWORD_HASH_PREFIX}N=${N},r=${r},p=${p}:${salt.toString('base64')}:${key.toString('base64')}`;
}

/**
 * What is wrong with a stored password, or null when it can be used. Only hashes can be wrong;
 * the message never quotes the value.
 */
export function storedPasswordProblem(stored: string): string | null {
  if (!isPasswordHash(stored)) return null;
  const parsed = parseHash(stored);
  return typeof parsed === 'string' ? parsed : null;
}

/**
 * Whether `presented` is the password `stored` (a hash or plain text) describes, in time that does
 * not depend on where they differ. No password (null) is the empty one: it matches only a stored
 * empty plain-text password, which is how a file says "no password needed"; nothing is ever put
 * in its place (HornetQ compared a missing password with the default user's name). A stored
 * value that is not a usable hash matches nothing.
 */
export async function verifyPassword(stored: string, presented: string | null): Promise<boolean> {
  if (!isPasswordHash(stored)) return equalInConstantTime(stored, presented ?? '');
  const parsed = parseHash(stored);
  if (typeof parsed === 'string' || presented === null) return false;
  const key = await derive(presented, parsed.salt, parsed.key.length, parsed);
  return timingSafeEqual(key, parsed.key);
}

/** Equal-length digests, so that neither the length nor the first difference shows in the time. */
function equalInConstantTime(a: string, b: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function derive(password: string, salt: Buffer, keyBytes: number, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // Node refuses more than 32 MiB by default; the limits above are what bounds it.
    maxmem: HASH_LIMITS.maxMemoryBytes + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyBytes, options, (error, key) =>
      error === null ? resolve(key) : reject(error),
    ),
  );
}

const HASH_FORMAT =
  /^scrypt:N=(\d{1,10}),r=(\d{1,10}),p=(\d{1,10}):([A-Za-z0-9+/]+={0,2}):([A-Za-z0-9+/]+={0,2})$/;

function parseHash(stored: string): ParsedHash | string {
  const match = HASH_FORMAT.exec(stored);
  if (match === null) {
    return `begins with '${PASSWORD_HASH_PREFIX}' but is not a hash of the form scrypt:N=<n>,r=<r>,p=<p>:<salt base64>:<key base64>`;
  }
  const [, n, r, p, saltText, keyText] = match as unknown as [string, string, string, string, string, string];
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const salt = Buffer.from(saltText, 'base64');
  const key = Buffer.from(keyText, 'base64');
  if (salt.toString('base64') !== saltText || key.toString('base64') !== keyText) {
    return 'is a hash whose salt or key is not valid base64';
  }
  const problem = parametersProblem(params) ?? lengthProblem(salt.length, key.length);
  return problem === null ? { ...params, salt, key } : `is a hash with ${problem}`;
}

function parametersProblem({ N, r, p }: ScryptParameters): string | null {
  const limits = HASH_LIMITS;
  // Math.log2, not N & (N - 1): bitwise operators work on 32 bits, and N may be written larger.
  if (!Number.isSafeInteger(N) || N < limits.minN || !Number.isInteger(Math.log2(N))) {
    return `N = ${N}: it must be a power of two, at least ${limits.minN}`;
  }
  if (!Number.isSafeInteger(r) || r < 1 || r > limits.maxR) return `r = ${r}: it must be 1..${limits.maxR}`;
  if (!Number.isSafeInteger(p) || p < 1 || p > limits.maxP) return `p = ${p}: it must be 1..${limits.maxP}`;
  if (128 * N * r > limits.maxMemoryBytes) {
    return `N = ${N}, r = ${r}: 128·N·r must be at most ${limits.maxMemoryBytes} bytes of memory`;
  }
  if (N * r * p > limits.maxWork)
    return `N = ${N}, r = ${r}, p = ${p}: N·r·p must be at most ${limits.maxWork}`;
  return null;
}

function lengthProblem(saltBytes: number, keyBytes: number): string | null {
  const limits = HASH_LIMITS;
  if (
    !Number.isSafeInteger(saltBytes) ||
    saltBytes < limits.minSaltBytes ||
    saltBytes > limits.maxSaltBytes
  ) {
    return `a salt of ${saltBytes} bytes: it must be ${limits.minSaltBytes}..${limits.maxSaltBytes}`;
  }
  if (!Number.isSafeInteger(keyBytes) || keyBytes < limits.minKeyBytes || keyBytes > limits.maxKeyBytes) {
    return `a key of ${keyBytes} bytes: it must be ${limits.minKeyBytes}..${limits.maxKeyBytes}`;
  }
  return null;
}
