import { HornetQException } from '../protocol';
import { SEND_FRAME_OVERHEAD } from '../protocol/packet-codec';
import { abortable } from './abortable';

interface AddressCredits {
  available: number;
  requested: number;
  /** The broker answered a request with fail-credits (address full, FAIL policy): the next send fails. */
  failed: boolean;
}

interface WaitingSend {
  address: string;
  size: number;
  write(): unknown;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * Decides when a session may put the next message on the wire. A send goes when the producer has
 * credits for its address (producer-window-size, granted by the broker while the address has room)
 * and the channel's resend buffer has room; otherwise it waits. The gate performs each write
 * itself, synchronously and in submission order, so a send made while others wait can never
 * overtake them. Credits are topped up in steps of an eighth of the window as they are used, so a
 * steady producer rarely waits for them.
 */
export class SendGate {
  private readonly credits = new Map<string, AddressCredits>();
  private readonly waiting: WaitingSend[] = [];
  private closedError: Error | null = null;
  private waitingForRoom = false;

  constructor(
    private readonly windowSize: number,
    private readonly requestCredits: (address: string, credits: number) => void,
    private readonly resendBuffer: {
      hasCapacity(frameBytes?: number): boolean;
      waitForCapacity(frameBytes?: number): Promise<void>;
    },
    /** Longest a send waits for room in the resend buffer (call-timeout); -1 without limit. */
    private readonly roomTimeoutMs: number = -1,
  ) {}

  /**
   * Runs `write` (which puts the message on the wire) as soon as the send may go, after every
   * send submitted before it; resolves with what `write` returns (a blocking send's answer).
   * Aborting `signal` rejects with its reason: a send still waiting is withdrawn (never written,
   * no credits taken, and the sends behind it move up); one written already stays written, and
   * only the wait for what `write` returns ends.
   */
  submit<T>(address: string, size: number, write: () => T | Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const entry = this.entryFor(address);
    if (entry.failed && this.waiting.length === 0) {
      // The "full" answer may be old: the send it was meant for may have been refused by the
      // broker already, and the address drained since. Ask again, so that this send fails only
      // if the address is still full (the answer settles it in drain()).
      entry.failed = false;
      entry.available = 0;
    }
    if (this.tryTake(address, size)) return abortable(invoke(write), signal);
    let send!: WaitingSend;
    const written = new Promise<T>((resolve, reject) => {
      send = { address, size, write, resolve: resolve as (result: unknown) => void, reject };
      this.waiting.push(send);
      this.topUp(address, entry, size);
    });
    return abortable(written, signal, () => this.withdraw(send));
  }

  /**
   * Takes what a send needs if it may go right now (nothing waits ahead of it, credits and room
   * are there), so that the caller writes it at once without a promise; false otherwise (submit).
   */
  tryTake(address: string, size: number): boolean {
    if (this.closedError !== null || this.waiting.length > 0) return false;
    const entry = this.entryFor(address);
    if (entry.failed || !this.canSend(entry, size)) return false;
    this.take(address, entry, size);
    return true;
  }

  /**
   * A producer for `address` was created: its window is asked for now, as HornetQ does, so that
   * its first send does not wait a round trip for credits (and is not stuck behind a request the
   * link lost).
   */
  requestInitialCredits(address: string): void {
    if (this.closedError !== null) return;
    this.topUp(address, this.entryFor(address), 0);
  }

  receiveCredits(address: string, credits: number): void {
    const entry = this.entryFor(address);
    entry.requested = Math.max(0, entry.requested - credits);
    entry.available += credits;
    this.drain();
  }

  /** The address is full and its policy is FAIL: the credits come anyway, with a failure for the next send. */
  receiveFailCredits(address: string, credits: number): void {
    const entry = this.entryFor(address);
    entry.failed = true;
    this.receiveCredits(address, credits);
  }

  /** Rejects every waiting send and refuses new ones (session closed or failed). */
  close(error: Error): void {
    this.closedError = error;
    for (const send of this.waiting.splice(0)) send.reject(error);
  }

  /** Forgets credits (a re-created session must ask its new broker session for them again). */
  resetCredits(): void {
    this.credits.clear();
    for (const send of this.waiting) this.topUp(send.address, this.entryFor(send.address), send.size);
  }

  /**
   * Takes a send that has not gone out of the queue. The credits asked for it are kept: they top
   * up the window for the sends that follow, which is what the request was for.
   */
  private withdraw(send: WaitingSend): void {
    const index = this.waiting.indexOf(send);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    if (index === 0) this.drain();
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const head = this.waiting[0] as WaitingSend;
      const entry = this.entryFor(head.address);
      if (entry.failed) {
        entry.failed = false;
        this.waiting.shift();
        head.reject(new HornetQException('ADDRESS_FULL', `Address ${head.address} is full`));
        continue;
      }
      if (!this.canSend(entry, head.size)) {
        // Credits asked for a message larger than the window may have gone to the sends ahead of it.
        this.topUp(head.address, entry, head.size);
        return;
      }
      this.waiting.shift();
      this.take(head.address, entry, head.size);
      invoke(head.write).then(head.resolve, head.reject);
    }
  }

  private canSend(entry: AddressCredits, size: number): boolean {
    if (entry.failed) return false;
    if (!this.resendBuffer.hasCapacity(size + SEND_FRAME_OVERHEAD)) {
      this.drainWhenRoom(size + SEND_FRAME_OVERHEAD);
      return false;
    }
    return this.windowSize === -1 || entry.available >= size;
  }

  /**
   * The resend buffer is full: try again once confirmations have made room. Sends never drop, but
   * none waits past the room timeout: if the broker confirms nothing for that long, the waiting
   * sends reject with CONNECTION_TIMEDOUT.
   */
  private drainWhenRoom(frameBytes: number): void {
    if (this.waitingForRoom) return;
    this.waitingForRoom = true;
    const timer =
      this.roomTimeoutMs === -1 ? null : setTimeout(() => this.timeOutWaitingForRoom(), this.roomTimeoutMs);
    void this.resendBuffer.waitForCapacity(frameBytes).then(() => {
      if (timer !== null) clearTimeout(timer);
      this.waitingForRoom = false;
      if (this.closedError === null) this.drain();
    });
  }

  private timeOutWaitingForRoom(): void {
    if (this.resendBuffer.hasCapacity()) return;
    this.waitingForRoom = false; // sends made from now on get a timer of their own
    const error = new HornetQException(
      'CONNECTION_TIMEDOUT',
      `Timed out after ${this.roomTimeoutMs} ms waiting for the broker to confirm commands: the resend buffer is full`,
    );
    for (const send of this.waiting.splice(0)) send.reject(error);
  }

  private take(address: string, entry: AddressCredits, size: number): void {
    if (this.windowSize === -1) return;
    entry.available -= size;
    this.topUp(address, entry, size);
  }

  /**
   * Keeps a window's worth of credits available or on their way, asking in steps of an eighth of
   * the window: waiting until half is used (one big request) would leave the producer idle for a
   * round trip every half window.
   */
  private topUp(address: string, entry: AddressCredits, size: number): void {
    if (this.windowSize === -1) return;
    const target = Math.max(this.windowSize, size);
    const missing = target - entry.available - entry.requested;
    if (missing < this.windowSize / 8 && entry.available + entry.requested >= size) return;
    if (missing <= 0) return;
    entry.requested += missing;
    this.requestCredits(address, missing);
  }

  private entryFor(address: string): AddressCredits {
    let entry = this.credits.get(address);
    if (entry === undefined) {
      entry = { available: 0, requested: 0, failed: false };
      this.credits.set(address, entry);
    }
    return entry;
  }
}

/** Calls `write` now; its result, or what it throws, as a promise. */
function invoke<T>(write: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(write());
  } catch (error) {
    return Promise.reject(error);
  }
}
