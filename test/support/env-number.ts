/**
 * A number from the environment for a long test run (a seed, a duration): null when unset or
 * blank, and a RangeError naming the variable, the value and what is allowed when it is not valid.
 */
export function readEnvNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  valid: (value: number) => boolean,
  allowed: string,
): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || !valid(value)) {
    throw new RangeError(`${name} must be ${allowed} (actual value: ${raw})`);
  }
  return value;
}
