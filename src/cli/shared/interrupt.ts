import { Interrupted } from './cli-error';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Turns the first Ctrl-C (or SIGTERM) into an AbortSignal, so that a command stops what it is
 * doing, closes its connection and reports what it did. A second one exits at once.
 */
export class InterruptWatch {
  private readonly controller = new AbortController();
  private received: NodeJS.Signals | null = null;
  private readonly handler = (signal: NodeJS.Signals): void => {
    if (this.received !== null) process.exit(new Interrupted(signal).exitCode);
    this.received = signal;
    this.controller.abort(new Interrupted(signal));
  };

  constructor() {
    for (const signal of SIGNALS) process.on(signal, this.handler);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.received !== null;
  }

  /** Throws Interrupted once a signal has come. */
  check(): void {
    if (this.received !== null) throw new Interrupted(this.received);
  }

  dispose(): void {
    for (const signal of SIGNALS) process.off(signal, this.handler);
  }
}
