import type { AbortOptions } from '../core/client';
import { IllegalStateRuntimeException } from './exceptions';

/** What a SharedConnection needs of the connection it shares: closing it. */
export interface Closeable {
  close(options?: AbortOptions): Promise<void>;
}

/**
 * A connection shared by the JMSContexts made from one another (`context.createContext(mode)`):
 * each context holds it once, and the last to let go closes it, as HornetQ's reference counter
 * (HornetQConnectionForContextImpl) does. Nothing can hold it again once it has closed.
 */
export class SharedConnection {
  private holders = 1;

  /** The first holder is the context the connection was made for. */
  constructor(private readonly connection: Closeable) {}

  get closed(): boolean {
    return this.holders === 0;
  }

  /** One more context shares the connection. */
  hold(): void {
    if (this.holders === 0) throw new IllegalStateRuntimeException('Connection is closed');
    this.holders++;
  }

  /** A context lets go; the last one closes the connection (and waits for that). */
  async release(options: AbortOptions = {}): Promise<void> {
    if (this.holders === 0) return;
    this.holders--;
    if (this.holders === 0) await this.connection.close(options);
  }
}
