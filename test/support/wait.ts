/**
 * The tests' one way to wait. Prefer `waitFor` on a condition to `sleep`: a condition is met as
 * soon as it holds, where a fixed sleep is either too long for an idle machine or too short for a
 * busy one.
 */

/**
 * Polls `condition` (which may be async) every few milliseconds until it holds; fails after
 * `timeoutMs` naming what it waited for.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

/** Resolves after `ms`; only for waits whose point is the passing of time (an idle link, a retry pause). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
