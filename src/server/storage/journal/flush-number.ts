/**
 * Flush numbers are u32 and wrap: compared in serial-number arithmetic (RFC 1982), so the journal
 * may run past 2^32 flushes as long as no two flushes in its files are 2^31 apart.
 */
export function nextFlush(flush: number): number {
  return (flush + 1) >>> 0;
}

export function isNextFlush(previous: number, flush: number): boolean {
  return flush === nextFlush(previous);
}

export function isNewerFlush(previous: number, flush: number): boolean {
  return ((flush - previous) | 0) > 0;
}
