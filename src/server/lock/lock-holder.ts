import { hostname } from 'node:os';

/**
 * Who holds a lock, as the holder wrote it down for the operator: the lock itself is what the OS
 * says, never this (a holder killed with -9 leaves its line behind).
 */
export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO 8601). */
  since: string;
  /**
   * 'backup': a backup of a shared-store pair that took over from its live (a returning live waits
   * for it to hand back instead of refusing to start). Absent for a live broker.
   */
  role?: 'backup';
}

/** The most of a holder line that is read: a line is far shorter, whatever else the file holds. */
export const HOLDER_MAX_BYTES = 512;

/** This process, now. */
export function currentHolder(now = new Date(), role?: 'backup'): LockHolder {
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: now.toISOString() };
  if (role !== undefined) holder.role = role;
  return holder;
}

export function encodeHolder(holder: LockHolder): Buffer {
  return Buffer.from(`${JSON.stringify(holder)}\n`, 'utf8');
}

/** The holder in `bytes`, or null when they hold no holder line (none written yet, or damaged). */
export function decodeHolder(bytes: Buffer): LockHolder | null {
  const line = bytes.subarray(0, HOLDER_MAX_BYTES).toString('utf8').split('\n')[0] ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, host, since, role } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || typeof host !== 'string' || typeof since !== 'string') return null;
  const holder: LockHolder = { pid: pid as number, host: printable(host, 255), since: printable(since, 64) };
  if (role === 'backup') holder.role = 'backup';
  return holder;
}

/** What a file said, safe to print on one line. */
function printable(text: string, maxLength: number): string {
  // eslint-disable-next-line no-control-regex
  return text.slice(0, maxLength).replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** `pid 4242 on db-1 since 2026-12-07T06:40:00.000Z`, saying when that is this very process. */
export function describeHolder(holder: LockHolder): string {
  const self = holder.pid === process.pid && holder.host === hostname() ? ', this process' : '';
  const backup = holder.role === 'backup' ? ', a backup serving in place of its live' : '';
  return `pid ${holder.pid} on ${holder.host} since ${holder.since}${self}${backup}`;
}
