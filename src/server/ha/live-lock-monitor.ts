/**
 * Checks, every `periodMs`, that the live lock still keeps every other broker out (`problem`
 * answers why not, or null), and calls `onLost` once with the reason the first time it does not.
 * A check that throws counts as lost: a store that cannot be asked cannot be trusted either.
 * Checks never overlap; stop() ends them.
 */
export class LiveLockMonitor {
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly problem: () => Promise<string | null>,
    private readonly periodMs: number,
    private readonly onLost: (reason: string) => void,
  ) {}

  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.check(), this.periodMs);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    let reason: string | null;
    try {
      reason = await this.problem();
    } catch (error) {
      reason = `the lock could not be checked (${error instanceof Error ? error.message : String(error)})`;
    } finally {
      this.checking = false;
    }
    if (reason === null || this.timer === null) return;
    this.stop();
    this.onLost(reason);
  }
}
