import { JavaError, type DestinationRef, type JmsDriver } from './jms-driver';

/**
 * Durable sends from HornetQ 2.4.7's Java client, one at a time through the JMS driver, each
 * numbered (int property `seq`) and carrying a duplicate-detection id (_HQ_DUPL_ID) made from its
 * number: a send that returned was confirmed by the server (blocking durable send); one that threw
 * has an outcome the client could not know (the failover cut it off). The loop goes on after a
 * failure Java reported, as an application on an `ha` connection does, until stopped; it ends at
 * once when the driver itself fails (no answer, the JVM gone).
 */

export const DUPLICATE_ID_PROPERTY = '_HQ_DUPL_ID';

export interface JavaSendRecord {
  /** Sequence numbers of the sends the server confirmed: each must be there exactly once. */
  confirmed: Set<number>;
  /** Sends that threw (seq → the Java error): the client cannot know whether they were stored. */
  unknown: Map<number, string>;
}

export class JavaSendLoop {
  readonly record: JavaSendRecord = { confirmed: new Set(), unknown: new Map() };
  private stopping = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly driver: JmsDriver,
    private readonly session: string,
    private readonly queue: DestinationRef,
    private readonly runId: string,
  ) {
    this.done = this.loop();
  }

  /** How many sends are confirmed so far. */
  get confirmedCount(): number {
    return this.record.confirmed.size;
  }

  /** Stops after the send in progress; resolves with what happened to each. */
  async stop(): Promise<JavaSendRecord> {
    this.stopping = true;
    await this.done;
    return this.record;
  }

  /**
   * Sends each send whose outcome was unknown again, with its duplicate id: the server stores it
   * if the first never arrived and drops it as a duplicate if it did, so afterwards each is there
   * exactly once. Call after stop(); a resend that is confirmed moves to `confirmed`.
   */
  async resendUnknown(): Promise<number[]> {
    const resent: number[] = [];
    for (const seq of [...this.record.unknown.keys()]) {
      await this.sendOne(seq);
      this.record.unknown.delete(seq);
      this.record.confirmed.add(seq);
      resent.push(seq);
    }
    return resent;
  }

  private async loop(): Promise<void> {
    for (let seq = 0; !this.stopping; seq++) {
      try {
        await this.sendOne(seq);
        this.record.confirmed.add(seq);
      } catch (error) {
        this.record.unknown.set(seq, (error as Error).message);
        if (!(error instanceof JavaError)) return;
      }
    }
  }

  private async sendOne(seq: number): Promise<void> {
    await this.driver.send(
      this.session,
      this.queue,
      {
        class: 'TextMessage',
        properties: {
          seq: ['int', seq],
          [DUPLICATE_ID_PROPERTY]: ['string', `${this.runId}:${seq}`],
        },
        body: `java ${seq}`,
      },
      { deliveryMode: 'PERSISTENT' },
    );
  }
}
