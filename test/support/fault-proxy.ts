import { EventEmitter } from 'node:events';
import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';
import { seededRandom } from './seeded-random';

export { seededRandom };

/**
 * A TCP proxy for integration tests that breaks the network on demand: RST, FIN, a black hole,
 * latency, a cut in the middle of a frame, refused connections and backpressure. Everything runs
 * on real loopback sockets so the client's and broker's failure detection sees what it would see
 * on a real network (ECONNRESET, 'end', or silence).
 */

export type Direction = 'toServer' | 'toClient';
export type CutDirection = Direction | 'both';
/** Why the proxy reset a link: which fault was injected. */
export type ResetReason = 'cut' | 'cutAfterBytes' | 'randomCut';

export interface FaultProxyOptions {
  readonly targetHost: string;
  readonly targetPort: number;
  /** Must be a loopback address: tests never expose a port beyond the machine. */
  readonly listenHost?: string;
  /** 0 picks an ephemeral port; read it back from `proxy.port`. */
  readonly listenPort?: number;
  /** Bytes one direction of one link may hold in delay mode before its reader is paused. */
  readonly maxQueuedBytesPerLink?: number;
}

export interface RandomCutsOptions {
  /** Replays a schedule; when absent one is drawn and printed so a failing run can be replayed. */
  readonly seed?: number;
  /** Mean of the exponential wait between two cuts. */
  readonly meanIntervalMs: number;
  /** The schedule ends after this many cut events (a cut with no link open still counts). */
  readonly maxCuts?: number;
  /** The schedule also ends this long after it started, whichever comes first. */
  readonly durationMs?: number;
  /** Where the seed is printed. */
  readonly log?: (line: string) => void;
}

/** A running random-cut schedule. */
export interface RandomCuts {
  readonly seed: number;
  /** Cut events fired so far. */
  readonly cuts: number;
  /** Links reset by this schedule so far. */
  readonly linksCut: number;
  stop(): void;
  /** Resolves (never rejects) with the number of cut events once the schedule has ended. */
  readonly done: Promise<number>;
}

export type FaultProxyEvents = {
  /** A client connection was accepted and a link to the target opened. */
  connection: [linkId: number];
  /**
   * The proxy injected a reset into a link. Emitted synchronously, before any later connection
   * can be accepted, so `proxy.once('reset', () => proxy.pass())` lets exactly one link fail.
   */
  reset: [linkId: number, reason: ResetReason];
};

export const DEFAULTS = {
  listenHost: '127.0.0.1',
  listenPort: 0,
  maxQueuedBytesPerLink: 1024 * 1024,
  maxRandomCuts: 100,
} as const;

/** Polling period of the wait helpers: short enough for tests, long enough to stay cheap. */
const POLL_MS = 10;
/**
 * Pause between the last bytes cutAfterBytes lets through and the RST. When a peer's bytes and
 * the RST arrive in the same poll, libuv reports a plain EOF ('end') instead of ECONNRESET; the
 * pause lets the peer read the bytes first, so it normally sees the reset as a reset.
 */
const RESET_GRACE_MS = 20;

type Mode =
  | { readonly kind: 'pass' }
  | { readonly kind: 'blackHole' }
  | { readonly kind: 'stall' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'cutAfterBytes'; readonly bytes: number; readonly direction: CutDirection };

const PASS: Mode = { kind: 'pass' };

interface Settings {
  readonly targetHost: string;
  readonly targetPort: number;
  readonly listenHost: string;
  readonly listenPort: number;
  readonly maxQueuedBytesPerLink: number;
}

interface Counters {
  accepted: number;
  refused: number;
  toServer: number;
  toClient: number;
  dropped: number;
  resets: number;
  peakQueued: number;
}

/** What a link needs from its proxy; kept narrow so links cannot reach into the proxy's state. */
interface LinkHooks {
  readonly maxQueuedBytes: number;
  mode(): Mode;
  relayed(direction: Direction, bytes: number): void;
  dropped(bytes: number): void;
  queued(bytes: number): void;
  injectedReset(link: Link, reason: ResetReason): void;
  closed(link: Link): void;
}

export class FaultProxy extends EventEmitter<FaultProxyEvents> {
  private readonly server: Server;
  private readonly hooks: LinkHooks;
  private readonly links = new Set<Link>();
  /** Refused sockets are kept until closed so close() can wait for them too. */
  private readonly refusing = new Set<Socket>();
  private readonly cancelWaits = new Set<() => void>();
  private readonly schedules = new Set<RandomCutSchedule>();
  private readonly counters: Counters = {
    accepted: 0,
    refused: 0,
    toServer: 0,
    toClient: 0,
    dropped: 0,
    resets: 0,
    peakQueued: 0,
  };
  private mode: Mode = PASS;
  /** performance.now() until which new connections are refused; Infinity means until pass(). */
  private refuseUntil = 0;
  private nextLinkId = 1;
  private listeningPort = 0;
  private closing: Promise<void> | undefined;

  private constructor(private readonly settings: Settings) {
    super();
    this.hooks = this.createHooks();
    this.server = createServer({ allowHalfOpen: true }, (socket) => this.onConnection(socket));
  }

  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const proxy = new FaultProxy(resolveOptions(options));
    await proxy.listen();
    return proxy;
  }

  get port(): number {
    return this.listeningPort;
  }
  get connectionsAccepted(): number {
    return this.counters.accepted;
  }
  get connectionsRefused(): number {
    return this.counters.refused;
  }
  get activeLinks(): number {
    return this.links.size;
  }
  get bytesToServer(): number {
    return this.counters.toServer;
  }
  get bytesToClient(): number {
    return this.counters.toClient;
  }
  /** Bytes read from a peer and thrown away (black hole, or after a link was condemned). */
  get bytesDropped(): number {
    return this.counters.dropped;
  }
  /** Links reset by cut(), cutAfterBytes() or randomCuts(); resets passed on from a peer do not count. */
  get linksReset(): number {
    return this.counters.resets;
  }
  /** The most bytes one direction of one link has held in delay mode: shows the bound holds. */
  get peakQueuedBytes(): number {
    return this.counters.peakQueued;
  }

  /** Normal relay; also ends refuseNewConnections() and delivers what a black hole held back (FIN, RST). */
  pass(): void {
    this.refuseUntil = 0;
    this.setMode(PASS);
  }

  /** Resets every current link on both sides; the mode for later connections is unchanged. */
  cut(): number {
    return this.resetAll('cut');
  }

  /** Sends FIN to every current client (no RST); bytes the server sends afterwards are dropped. */
  halfClose(): void {
    for (const link of this.links) link.halfCloseClient();
  }

  /** Reads and drops every byte both ways and holds back FIN and RST, like a dead network. */
  blackHole(): void {
    this.setMode({ kind: 'blackHole' });
  }

  /** Stops reading from every peer (TCP backpressure, nothing dropped) until another mode is set. */
  stall(): void {
    this.setMode({ kind: 'stall' });
  }

  /** Holds every chunk `ms` milliseconds in each direction, keeping order. */
  delay(ms: number): void {
    requireNumber('delay ms', ms, 0, Number.MAX_SAFE_INTEGER, 'a finite number >= 0');
    this.setMode({ kind: 'delay', ms });
  }

  /**
   * Each link (current, and new ones while the mode lasts) relays exactly `bytes` more bytes in
   * `direction` and is then reset on both sides. With 'both' the count is shared by the two
   * directions. 0 resets a link when its next byte arrives.
   */
  cutAfterBytes(bytes: number, direction: CutDirection = 'both'): void {
    requireInteger('cutAfterBytes bytes', bytes, 0, Number.MAX_SAFE_INTEGER);
    if (direction !== 'toServer' && direction !== 'toClient' && direction !== 'both') {
      throw new RangeError(
        `FaultProxy: direction must be 'toServer', 'toClient' or 'both', got ${String(direction)}`,
      );
    }
    this.setMode({ kind: 'cutAfterBytes', bytes, direction });
  }

  /** Resets new connections as soon as they are accepted, for `forMs` or until pass(). */
  refuseNewConnections(forMs?: number): void {
    if (forMs === undefined) {
      this.refuseUntil = Infinity;
      return;
    }
    requireNumber('refuseNewConnections forMs', forMs, 0, Number.MAX_SAFE_INTEGER, 'a finite number >= 0');
    this.refuseUntil = performance.now() + forMs;
  }

  /** Cuts every link at random times drawn from a seeded PRNG; the seed is printed first. */
  randomCuts(options: RandomCutsOptions): RandomCuts {
    if (this.closing !== undefined) throw new Error('FaultProxy: randomCuts() after close()');
    const schedule = new RandomCutSchedule(
      options,
      () => this.resetAll('randomCut'),
      () => this.schedules.delete(schedule),
    );
    this.schedules.add(schedule);
    schedule.start();
    return schedule;
  }

  waitForConnections(count: number, timeoutMs: number): Promise<void> {
    return this.waitUntil(() => this.connectionsAccepted >= count, timeoutMs, `${count} connections`);
  }

  /**
   * Polls `condition` until it holds; rejects after `timeoutMs`, when `condition` throws, or when
   * the proxy closes, so a test never hangs on a fault that did not happen.
   */
  waitUntil(condition: () => boolean, timeoutMs: number, what = 'condition'): Promise<void> {
    requireNumber('timeoutMs', timeoutMs, 0, Number.MAX_SAFE_INTEGER, 'a finite number >= 0');
    return new Promise<void>((resolve, reject) => {
      const deadline = performance.now() + timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        this.cancelWaits.delete(cancel);
        if (error === undefined) resolve();
        else reject(error);
      };
      const cancel = (): void => settle(new Error(`FaultProxy closed while waiting for ${what}`));
      const check = (): void => {
        try {
          if (condition()) return settle();
        } catch (error) {
          return settle(error instanceof Error ? error : new Error(String(error)));
        }
        if (performance.now() >= deadline)
          return settle(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        timer = setTimeout(check, POLL_MS);
      };
      this.cancelWaits.add(cancel);
      check();
    });
  }

  /** Closes the listener and every socket; resolves once all handles are gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const schedule of this.schedules) schedule.stop();
    for (const cancel of this.cancelWaits) cancel();
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const linksClosed = [...this.links].map((link) => link.destroy());
    const refusedClosed = [...this.refusing].map((socket) => socketClosed(socket.destroy()));
    await Promise.all([serverClosed, ...linksClosed, ...refusedClosed]);
  }

  private listen(): Promise<void> {
    const { listenHost, listenPort } = this.settings;
    return new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(listenPort, listenHost, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        if (address !== null && typeof address === 'object') this.listeningPort = address.port;
        resolve();
      });
    });
  }

  private onConnection(client: Socket): void {
    // A connection can already be queued when close() starts; it must not open a new link.
    if (this.closing !== undefined || performance.now() < this.refuseUntil) {
      this.refuse(client);
      return;
    }
    this.counters.accepted++;
    const { targetHost, targetPort } = this.settings;
    const server = connect({ host: targetHost, port: targetPort, allowHalfOpen: true });
    const link = new Link(this.nextLinkId++, client, server, this.hooks);
    this.links.add(link);
    this.emit('connection', link.id);
  }

  private refuse(client: Socket): void {
    if (this.closing === undefined) this.counters.refused++;
    this.refusing.add(client);
    client.on('error', ignore);
    client.once('close', () => this.refusing.delete(client));
    client.resetAndDestroy();
  }

  private resetAll(reason: ResetReason): number {
    let count = 0;
    for (const link of [...this.links]) if (link.reset(reason)) count++;
    return count;
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    for (const link of [...this.links]) link.onModeChange(mode);
  }

  private createHooks(): LinkHooks {
    const counters = this.counters;
    return {
      maxQueuedBytes: this.settings.maxQueuedBytesPerLink,
      mode: () => this.mode,
      relayed: (direction, bytes) => {
        if (direction === 'toServer') counters.toServer += bytes;
        else counters.toClient += bytes;
      },
      dropped: (bytes) => {
        counters.dropped += bytes;
      },
      queued: (bytes) => {
        counters.peakQueued = Math.max(counters.peakQueued, bytes);
      },
      injectedReset: (link, reason) => {
        counters.resets++;
        this.emit('reset', link.id, reason);
      },
      closed: (link) => {
        this.links.delete(link);
      },
    };
  }
}

/** One accepted client connection and its connection to the target. */
class Link {
  /** Bytes still allowed through while cutAfterBytes is armed; shared by both directions. */
  cutBudget = 0;
  /** No byte passes any more: a reset is on its way, or the link is gone. */
  private condemned = false;
  /** Sockets have been reset or destroyed; makes reset/abort/destroy idempotent. */
  private finished = false;
  /** A peer reset while black-holed: a dead network would not carry the RST either. */
  private abortPending = false;
  private resetTimer: NodeJS.Timeout | undefined;
  private readonly pipes: readonly [Pipe, Pipe];
  private readonly whenClosed: Promise<void>;

  constructor(
    readonly id: number,
    private readonly client: Socket,
    private readonly server: Socket,
    readonly hooks: LinkHooks,
  ) {
    const mode = hooks.mode();
    if (mode.kind === 'cutAfterBytes') this.cutBudget = mode.bytes;
    for (const socket of [client, server]) {
      socket.setNoDelay(true);
      socket.on('error', () => this.onPeerError());
    }
    this.pipes = [new Pipe('toServer', client, server, this), new Pipe('toClient', server, client, this)];
    this.whenClosed = Promise.all([socketClosed(client), socketClosed(server)]).then(() => {
      for (const pipe of this.pipes) pipe.dispose();
      hooks.closed(this);
    });
  }

  isDropping(): boolean {
    return this.condemned || this.hooks.mode().kind === 'blackHole';
  }

  /** Stops all traffic now; the reset follows once the last allowed bytes are written. */
  condemn(): void {
    this.condemned = true;
  }

  resetSoon(reason: ResetReason): void {
    if (!this.finished) this.resetTimer ??= setTimeout(() => this.reset(reason), RESET_GRACE_MS);
  }

  reset(reason: ResetReason): boolean {
    if (this.finished) return false;
    this.resetSockets();
    this.hooks.injectedReset(this, reason);
    return true;
  }

  halfCloseClient(): void {
    if (!this.condemned && !this.client.writableEnded && !this.client.destroyed) this.client.end();
  }

  onModeChange(mode: Mode): void {
    if (mode.kind === 'cutAfterBytes') this.cutBudget = mode.bytes;
    if (this.abortPending && mode.kind !== 'blackHole') this.abort();
    for (const pipe of this.pipes) pipe.onModeChange();
  }

  /** Plain destroy for close(): prompt even while the target connection is still connecting. */
  destroy(): Promise<void> {
    this.finish();
    this.client.destroy();
    this.server.destroy();
    return this.whenClosed;
  }

  /** A peer reset or the target refused: pass the failure on to the other side as a reset. */
  private onPeerError(): void {
    if (this.hooks.mode().kind === 'blackHole') this.abortPending = true;
    else this.abort();
  }

  private finish(): void {
    this.finished = this.condemned = true;
    clearTimeout(this.resetTimer);
    for (const pipe of this.pipes) pipe.dispose();
  }

  private abort(): void {
    if (!this.finished) this.resetSockets();
  }

  private resetSockets(): void {
    this.finish();
    for (const socket of [this.client, this.server]) {
      if (socket.destroyed) continue;
      // After end() the RST cannot be sent: Node's resetAndDestroy() then fails with EINVAL and
      // never emits 'close', so the link would never go and close() would hang. Such a socket has
      // sent (or is sending) its FIN already; a plain destroy closes it.
      if (socket.writableEnded) socket.destroy();
      else socket.resetAndDestroy();
    }
  }
}

interface QueuedChunk {
  readonly chunk: Buffer;
  readonly due: number;
}

/** One direction of a link: reads from `source`, applies the mode, writes to `dest`. */
class Pipe {
  private readonly queue: QueuedChunk[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** dest.write() returned false: stop reading until 'drain' so nothing piles up in memory. */
  private destBlocked = false;
  private sourceEnded = false;

  constructor(
    private readonly direction: Direction,
    private readonly source: Socket,
    private readonly dest: Socket,
    private readonly link: Link,
  ) {
    source.on('data', (chunk: Buffer) => this.onData(chunk));
    source.on('end', () => {
      this.sourceEnded = true;
      this.maybeEnd();
    });
    dest.on('drain', () => {
      this.destBlocked = false;
      this.updateFlow();
    });
    this.updateFlow();
  }

  onModeChange(): void {
    this.updateFlow();
    this.maybeEnd();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  private onData(chunk: Buffer): void {
    const mode = this.link.hooks.mode();
    // Chunks still queued from an earlier delay go first, so changing mode never reorders bytes.
    if (mode.kind === 'delay' || this.queue.length > 0)
      this.enqueue(chunk, mode.kind === 'delay' ? mode.ms : 0);
    else this.deliver(chunk);
  }

  private enqueue(chunk: Buffer, delayMs: number): void {
    const last = this.queue[this.queue.length - 1];
    const due = Math.max(performance.now() + delayMs, last?.due ?? 0);
    this.queue.push({ chunk, due });
    this.queuedBytes += chunk.length;
    this.link.hooks.queued(this.queuedBytes);
    this.updateFlow();
    this.schedule();
  }

  private schedule(): void {
    const head = this.queue[0];
    if (this.timer !== undefined || head === undefined) return;
    const wait = Math.max(0, Math.ceil(head.due - performance.now()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.deliverDue();
    }, wait);
  }

  private deliverDue(): void {
    const now = performance.now();
    for (let head = this.queue[0]; head !== undefined && head.due <= now; head = this.queue[0]) {
      this.queue.shift();
      this.queuedBytes -= head.chunk.length;
      this.deliver(head.chunk);
    }
    this.updateFlow();
    this.schedule();
    this.maybeEnd();
  }

  private deliver(chunk: Buffer): void {
    if (this.link.isDropping() || this.dest.writableEnded || this.dest.destroyed) {
      this.link.hooks.dropped(chunk.length);
      return;
    }
    const mode = this.link.hooks.mode();
    if (mode.kind !== 'cutAfterBytes' || (mode.direction !== 'both' && mode.direction !== this.direction)) {
      this.write(chunk);
      return;
    }
    this.deliverWithinBudget(chunk);
  }

  private deliverWithinBudget(chunk: Buffer): void {
    const budget = this.link.cutBudget;
    if (chunk.length < budget) {
      this.link.cutBudget = budget - chunk.length;
      this.write(chunk);
      return;
    }
    this.link.condemn();
    this.link.hooks.dropped(chunk.length - budget);
    if (budget === 0) {
      this.link.reset('cutAfterBytes');
      return;
    }
    // Reset only once the allowed bytes reached the kernel: an RST discards unsent data.
    this.write(chunk.subarray(0, budget), () => this.link.resetSoon('cutAfterBytes'));
  }

  private write(chunk: Buffer, written?: () => void): void {
    this.link.hooks.relayed(this.direction, chunk.length);
    if (!this.dest.write(chunk, written)) {
      this.destBlocked = true;
      this.updateFlow();
    }
  }

  private updateFlow(): void {
    if (this.source.destroyed) return;
    const stalled = this.link.hooks.mode().kind === 'stall';
    const full = this.queuedBytes >= this.link.hooks.maxQueuedBytes;
    if (stalled || full || this.destBlocked) this.source.pause();
    else this.source.resume();
  }

  /** Passes a peer's FIN on once everything before it was delivered (held back in a black hole). */
  private maybeEnd(): void {
    if (!this.sourceEnded || this.queue.length > 0 || this.link.isDropping()) return;
    if (!this.dest.writableEnded && !this.dest.destroyed) this.dest.end();
  }
}

class RandomCutSchedule implements RandomCuts {
  readonly seed: number;
  readonly done: Promise<number>;
  private cutEvents = 0;
  private links = 0;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  private resolveDone: (cuts: number) => void = ignore;
  private readonly random: () => number;
  private readonly meanIntervalMs: number;
  private readonly maxCuts: number;
  private readonly deadline: number;

  constructor(
    options: RandomCutsOptions,
    private readonly cutAll: () => number,
    private readonly onEnd: () => void,
  ) {
    this.seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
    requireInteger('randomCuts seed', this.seed, 0, 2 ** 32 - 1);
    requireNumber('randomCuts meanIntervalMs', options.meanIntervalMs, 1, 3_600_000, 'between 1 and 3600000');
    this.meanIntervalMs = options.meanIntervalMs;
    this.maxCuts = options.maxCuts ?? DEFAULTS.maxRandomCuts;
    requireInteger('randomCuts maxCuts', this.maxCuts, 0, 1_000_000);
    const durationMs = options.durationMs ?? Infinity;
    if (durationMs !== Infinity)
      requireNumber('randomCuts durationMs', durationMs, 0, 86_400_000, 'between 0 and 86400000');
    this.deadline = performance.now() + durationMs;
    this.random = seededRandom(this.seed);
    this.done = new Promise<number>((resolve) => (this.resolveDone = resolve));
    // Printed before any cut so that a run that crashes can still be replayed.
    (options.log ?? console.log)(
      `FaultProxy.randomCuts seed=${this.seed} meanIntervalMs=${this.meanIntervalMs} (replay with { seed: ${this.seed} })`,
    );
  }

  /** Separate from the constructor because the schedule may end at once (maxCuts 0) and unregister. */
  start(): void {
    this.scheduleNext();
  }

  get cuts(): number {
    return this.cutEvents;
  }
  get linksCut(): number {
    return this.links;
  }

  stop(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    this.onEnd();
    this.resolveDone(this.cutEvents);
  }

  private scheduleNext(): void {
    if (this.cutEvents >= this.maxCuts) return this.stop();
    // Exponential waits make cuts a Poisson process: bursts and lulls, like real outages.
    const interval = Math.max(1, -Math.log(1 - this.random()) * this.meanIntervalMs);
    const wait = Math.min(interval, Math.max(0, this.deadline - performance.now()));
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    if (performance.now() >= this.deadline) return this.stop();
    this.cutEvents++;
    this.links += this.cutAll();
    this.scheduleNext();
  }
}

function resolveOptions(options: FaultProxyOptions): Settings {
  const settings: Settings = {
    targetHost: options.targetHost,
    targetPort: options.targetPort,
    listenHost: options.listenHost ?? DEFAULTS.listenHost,
    listenPort: options.listenPort ?? DEFAULTS.listenPort,
    maxQueuedBytesPerLink: options.maxQueuedBytesPerLink ?? DEFAULTS.maxQueuedBytesPerLink,
  };
  requireInteger('targetPort', settings.targetPort, 1, 65535);
  requireInteger('listenPort', settings.listenPort, 0, 65535);
  requireInteger('maxQueuedBytesPerLink', settings.maxQueuedBytesPerLink, 1, 2 ** 31 - 1);
  if (!isLoopback(settings.listenHost)) {
    throw new RangeError(
      `FaultProxy: listenHost must be a loopback address (127.x.x.x, ::1, localhost), got ${settings.listenHost}`,
    );
  }
  return settings;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

function requireInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `FaultProxy: ${name} must be an integer between ${min} and ${max}, got ${String(value)}`,
    );
  }
}

function requireNumber(name: string, value: number, min: number, max: number, allowed: string): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`FaultProxy: ${name} must be ${allowed}, got ${String(value)}`);
  }
}

function socketClosed(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise<void>((resolve) => socket.once('close', () => resolve()));
}

function ignore(): void {}
