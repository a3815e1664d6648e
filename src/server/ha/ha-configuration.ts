/**
 * A live/backup pair on a shared store, in HornetQ 2.4's terms (hornetq-configuration.xml's
 * elements of the same names, with HornetQ's defaults). Both brokers of the pair name the same
 * journal, bindings, large-messages and paging directories; server.lock in the journal directory
 * decides which one serves.
 */
export interface HaConfiguration {
  /**
   * shared-store: the pair shares its directories (HornetQ's default, true). false is HornetQ's
   * replication, which is not implemented: a backup then is refused.
   */
  sharedStore: boolean;
  /**
   * backup: the broker starts as the backup of the live that serves its directories. It keeps its
   * acceptors closed and waits; once the live is gone (crashed, or stopped with
   * failover-on-shutdown) it loads the journal, paging and large messages, opens its acceptors and
   * serves with the pair's node id.
   */
  backup: boolean;
  /**
   * allow-failback: a backup serving in its live's place stops and waits again when the live comes
   * back (the live asks through server.lock). false: it serves until it stops or dies.
   */
  allowFailback: boolean;
  /**
   * failback-delay: how long a returning live waits before it asks the backup serving in its place
   * to hand back (ms).
   */
  failbackDelay: number;
  /**
   * failover-on-shutdown: a clean stop hands over to the waiting backup (server.lock keeps LIVE, as
   * after a crash). false: it writes PAUSED and the backup keeps waiting.
   */
  failoverOnShutdown: boolean;
  /**
   * Ours: how often a waiting backup, or a live waiting for its backup to hand back, tries the live
   * lock and reads server.lock's state again (ms). HornetQ tries every 500 ms; ours every 200, so
   * that noticing the free lock (up to one period), the pause before writing (500 ms) and opening
   * the acceptors fit in the one second a takeover may add to loading the journal (measured by
   * `npm run bench -- --scenarios ha-failover`: with 500, 4 kills in 13 took up to 183 ms more).
   */
  haLockPollPeriod: number;
  /**
   * Ours: how often a serving broker checks that server.lock is still the file it locked (ms); one
   * that is not (removed, replaced, its file system gone) stops at once. A backup that takes the
   * live lock waits two of these periods (and a stop's allowance) before it writes anything, so
   * that a live that lost its lock has stopped by then.
   */
  liveLockCheckPeriod: number;
}

export const DEFAULT_HA_CONFIGURATION: Readonly<HaConfiguration> = Object.freeze({
  sharedStore: true,
  backup: false,
  allowFailback: true,
  failbackDelay: 5_000,
  failoverOnShutdown: false,
  haLockPollPeriod: 200,
  liveLockCheckPeriod: 100,
});

/** What a live that lost its lock may still take to stop writing once it has noticed (ms). */
const STOP_ALLOWANCE_MS = 300;

/** How long a backup that has just taken the live lock waits before it loads (and writes) the store. */
export function takeoverDelay(config: Pick<HaConfiguration, 'liveLockCheckPeriod'>): number {
  return 2 * config.liveLockCheckPeriod + STOP_ALLOWANCE_MS;
}

const MAX_TIMER_MS = 2_147_483_647;

/**
 * What is wrong with the HA settings, each naming the setting (and its XML element) and the value.
 * `keepsOwnJournal`: persistence is on and the broker makes its journals (a backup needs them).
 */
export function haConfigurationProblems(config: HaConfiguration, keepsOwnJournal: boolean): string[] {
  const problems: string[] = [];
  for (const [field, element] of [
    ['sharedStore', 'shared-store'],
    ['backup', 'backup'],
    ['allowFailback', 'allow-failback'],
    ['failoverOnShutdown', 'failover-on-shutdown'],
  ] as const) {
    if (typeof config[field] !== 'boolean')
      problems.push(`${field} (${element}) must be true or false (actual value: ${String(config[field])})`);
  }
  for (const [field, name, min] of [
    ['failbackDelay', 'failbackDelay (failback-delay)', 0],
    ['haLockPollPeriod', 'haLockPollPeriod', 1],
    ['liveLockCheckPeriod', 'liveLockCheckPeriod', 1],
  ] as const) {
    const value = config[field];
    if (!(Number.isSafeInteger(value) && value >= min && value <= MAX_TIMER_MS))
      problems.push(`${name} must be an integer in ${min}..${MAX_TIMER_MS} ms (actual value: ${value})`);
  }
  if (config.backup === true && config.sharedStore === false) {
    problems.push(
      'backup with shared-store false is a replicating backup, which is not implemented: give the pair one store (shared-store true)',
    );
  }
  if (config.backup === true && !keepsOwnJournal) {
    problems.push(
      'a backup needs persistence-enabled and the journals in its data directory: it takes over the store its live leaves',
    );
  }
  return problems;
}
