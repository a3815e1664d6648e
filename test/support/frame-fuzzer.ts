import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FrameDecoder } from '../../src/core/protocol/frame-decoder';
import { decodeFrame } from '../../src/core/protocol/packet-codec';
import { ProtocolError } from '../../src/core/protocol/protocol-error';
import { CodecOracle } from './codec-oracle';
import { seededRandom } from './fault-proxy';
import { planConnection, type ConnectionPlan, type FuzzNames } from './fuzz-plan';
import { readEnvNumber } from './env-number';

/**
 * The fuzz run behind test/integration/fuzz.test.ts and `npm run test:fuzz`: many short raw TCP
 * connections to a broker, each sending the frames its plan (test/support/fuzz-plan.ts) makes
 * from its seed, a few at a time until the time is up. For each connection the real codec says
 * whether the broker must refuse the bytes (CodecOracle); the run checks that it then closed the
 * connection, and that everything the broker sent back decodes. It returns what it saw; the test
 * decides the rest (the honest clients, the broker's state, the heap).
 */

export interface FuzzSettings {
  /** Seeds every connection's plan; printed first so that a run can be replayed. */
  readonly seed: number;
  /** New connections start until this long has passed. */
  readonly durationMs: number;
  /** Connections open at once. */
  readonly concurrency: number;
  /** Each connection stops adding frames past this many bytes (the last frame may go over). */
  readonly maxBytesPerConnection: number;
  readonly maxFramesPerConnection: number;
  /** How long the broker has to close a connection, counted from the last byte written. */
  readonly closeDeadlineMs: number;
  readonly log: (line: string) => void;
}

export const FUZZ_DEFAULTS = {
  durationMs: 10_000,
  concurrency: 6,
  maxBytesPerConnection: 64 * 1024,
  maxFramesPerConnection: 24,
  // Generous: the broker closes at once, but a loaded 2-core machine may stall for seconds.
  closeDeadlineMs: 15_000,
} as const;

/** Longest the run may be asked to last (FUZZ_MS): a day. */
const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

/** Reads FUZZ_SEED and FUZZ_MS; anything invalid throws naming the variable, value and range. */
export function fuzzSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = (line) => console.log(line),
): FuzzSettings {
  const seed = readEnvNumber(
    env,
    'FUZZ_SEED',
    (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32,
    '0..4294967295',
  );
  const durationMs = readEnvNumber(
    env,
    'FUZZ_MS',
    (v) => Number.isInteger(v) && v >= 1 && v <= MAX_DURATION_MS,
    `an integer number of ms in 1..${MAX_DURATION_MS}`,
  );
  return {
    ...FUZZ_DEFAULTS,
    seed: seed ?? Math.floor(Math.random() * 2 ** 32),
    durationMs: durationMs ?? FUZZ_DEFAULTS.durationMs,
    log,
  };
}

/** The broker under test, as the fuzzer needs to know it. */
export interface FuzzTarget {
  readonly port: number;
  /** The broker's maxFrameBytes. */
  readonly maxFrameBytes: number;
  readonly names: FuzzNames;
  /**
   * Why the broker says it closed the connection from this local port (its log line), or null if
   * it gave no reason: a close that could be the TTL reaper, not a refusal, does not count.
   */
  readonly closeReason: (localPort: number) => string | null;
}

export interface FuzzReport {
  readonly seed: number;
  readonly elapsedMs: number;
  readonly connections: number;
  readonly byKind: Readonly<Record<ConnectionPlan['kind'], number>>;
  readonly framesSent: number;
  readonly mutatedFrames: number;
  readonly bytesSent: number;
  /** Connections whose bytes the codec refuses, and how many of them the broker closed. */
  readonly refusedByCodec: number;
  readonly refusedAndClosed: number;
  /** Connections the broker closed before the fuzzer ended them (refused or not). */
  readonly closedByBroker: number;
  /** Upper bounds on what the fuzz traffic could make the broker keep (see CodecOracle). */
  readonly lastingQueues: number;
  readonly messages: number;
  /** What went wrong, each with the seeds and the frames to reproduce it (the first 20). */
  readonly problems: readonly string[];
  readonly problemCount: number;
  /**
   * The longest the event loop (broker, fuzzer and honest clients alike) was stalled: a failure
   * after a stall near the broker's connection TTL may be the TTL reaper, not the broker's doing.
   */
  readonly maxEventLoopDelayMs: number;
  /** The codec's reasons for refusing, by their first words, most frequent first (for the summary). */
  readonly rejections: ReadonlyArray<readonly [string, number]>;
}

const MAX_PROBLEMS = 20;
/** Time the broker gets to answer a connection whose bytes were all acceptable, before the fuzzer ends it. */
const QUIET_MS = 30;

/** Runs connections until `settings.durationMs` has passed; resolves when every one has closed. */
export async function runFuzz(target: FuzzTarget, settings: FuzzSettings): Promise<FuzzReport> {
  settings.log(
    `fuzz seed=${settings.seed} durationMs=${settings.durationMs} (replay: FUZZ_SEED=${settings.seed} FUZZ_MS=${settings.durationMs})`,
  );
  const started = Date.now();
  const nextSeed = seededRandom(settings.seed);
  const tally = new Tally(settings.seed);
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  const worker = async (): Promise<void> => {
    while (Date.now() - started < settings.durationMs) {
      const plan = planConnection(Math.floor(nextSeed() * 2 ** 32), target.names, {
        maxBytes: settings.maxBytesPerConnection,
        maxFrames: settings.maxFramesPerConnection,
      });
      tally.add(plan, await runConnection(plan, target, settings));
    }
  };
  try {
    await Promise.all(Array.from({ length: settings.concurrency }, worker));
  } finally {
    delay.disable();
  }
  return tally.report(Date.now() - started, delay.max / 1e6);
}

interface ConnectionOutcome {
  readonly oracle: CodecOracle;
  readonly closedByBroker: boolean;
  readonly problems: readonly string[];
}

async function runConnection(
  plan: ConnectionPlan,
  target: FuzzTarget,
  settings: FuzzSettings,
): Promise<ConnectionOutcome> {
  const oracle = new CodecOracle(target.maxFrameBytes);
  for (const frame of plan.frames) oracle.feed(frame.bytes);
  const problems: string[] = [];
  if (oracle.crash !== null) problems.push(`the codec threw ${oracle.crash} (not a ProtocolError)`);

  const connection = await FuzzConnection.open(target.port, target.maxFrameBytes);
  const stream = Buffer.concat(plan.frames.map((frame) => frame.bytes));
  let at = 0;
  for (const size of plan.writeSizes) {
    if (connection.closed) break;
    connection.write(stream.subarray(at, at + size));
    at += size;
    // Lets small pieces reach the broker as reads of their own (frames split across reads).
    if (size < 64) await new Promise((resolve) => setImmediate(resolve));
  }
  if (oracle.rejection !== null) {
    const closed = await connection.closedWithin(settings.closeDeadlineMs);
    if (!closed || target.closeReason(connection.localPort) === null) {
      problems.push(
        `the broker did not ${closed ? 'say why it closed' : `close within ${settings.closeDeadlineMs} ms`} the connection, although the codec refuses its bytes: ${oracle.rejection}`,
      );
    }
  } else {
    // It may close for a reason of its own (a packet on the wrong channel); either is fine.
    await connection.closedWithin(QUIET_MS);
    connection.end();
    if (!(await connection.closedWithin(settings.closeDeadlineMs))) {
      problems.push(
        `the broker did not close its side within ${settings.closeDeadlineMs} ms of the client's FIN`,
      );
    }
  }
  connection.destroy();
  if (connection.answerProblem !== null) problems.push(connection.answerProblem);
  return { oracle, closedByBroker: connection.closedByBroker, problems };
}

/** A raw TCP connection that sends anything, and checks that what the broker answers decodes. */
class FuzzConnection {
  /** Set when what the broker sent did not decode: the broker must only ever send valid frames. */
  answerProblem: string | null = null;
  private closedFlag = false;
  private endedByUs = false;
  private brokerClosedFirst = false;
  private readonly decoder: FrameDecoder;
  private readonly closedPromise: Promise<void>;

  /** The broker names the connection by it (tcp://127.0.0.1:<port>). */
  readonly localPort: number;

  private constructor(
    private readonly socket: Socket,
    maxFrameBytes: number,
  ) {
    this.localPort = socket.localPort ?? -1;
    // What the broker sends is bounded by its own maxFrameBytes; a little over allows its chunking overhead.
    this.decoder = new FrameDecoder(maxFrameBytes + 1024);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.closedPromise = new Promise((resolve) => {
      const peerClosed = (): void => {
        if (!this.endedByUs) this.brokerClosedFirst = true;
      };
      socket.on('end', peerClosed);
      // A reset while bytes were in flight: the broker closed on us.
      socket.on('error', peerClosed);
      socket.on('close', () => {
        peerClosed();
        this.closedFlag = true;
        resolve();
      });
    });
  }

  static open(port: number, maxFrameBytes: number): Promise<FuzzConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new FuzzConnection(socket, maxFrameBytes));
      });
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  get closedByBroker(): boolean {
    return this.brokerClosedFirst;
  }

  write(bytes: Buffer): void {
    if (!this.closedFlag) this.socket.write(bytes);
  }

  /** Half-closes: the broker sees the end of the stream. */
  end(): void {
    if (!this.brokerClosedFirst) this.endedByUs = true;
    this.socket.end();
  }

  destroy(): void {
    this.endedByUs = true;
    this.socket.destroy();
  }

  /** True once the socket is closed; false if it is still open after `ms`. */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.closedPromise, timeout]);
    clearTimeout(timer);
    return this.closedFlag;
  }

  private onData(chunk: Buffer): void {
    if (this.answerProblem !== null) return;
    try {
      this.decoder.feed(chunk, (frame) => decodeFrame(frame));
    } catch (error) {
      const reason = error instanceof ProtocolError ? error.message : String(error);
      this.answerProblem = `the broker sent bytes the codec refuses: ${reason}`;
    }
  }
}

/** Adds up the outcomes and keeps the first problems, each with what reproduces it. */
class Tally {
  private connections = 0;
  private readonly byKind: Record<ConnectionPlan['kind'], number> = { session: 0, control: 0, noise: 0 };
  private framesSent = 0;
  private mutatedFrames = 0;
  private bytesSent = 0;
  private refusedByCodec = 0;
  private refusedAndClosed = 0;
  private closedByBroker = 0;
  private lastingQueues = 0;
  private messages = 0;
  private readonly problems: string[] = [];
  private problemCount = 0;
  private readonly rejections = new Map<string, number>();

  constructor(private readonly seed: number) {}

  add(plan: ConnectionPlan, outcome: ConnectionOutcome): void {
    this.connections++;
    this.byKind[plan.kind]++;
    this.framesSent += plan.frames.length;
    this.mutatedFrames += plan.frames.filter((frame) => frame.mutation !== null).length;
    this.bytesSent += plan.frames.reduce((sum, frame) => sum + frame.bytes.length, 0);
    const { oracle } = outcome;
    this.lastingQueues += oracle.lastingQueues;
    this.messages += oracle.messages;
    if (outcome.closedByBroker) this.closedByBroker++;
    if (oracle.rejection !== null) {
      this.refusedByCodec++;
      if (outcome.closedByBroker) this.refusedAndClosed++;
      const reason = oracle.rejection.replace(/-?\d+/g, 'N').split(':').slice(0, 2).join(':');
      this.rejections.set(reason, (this.rejections.get(reason) ?? 0) + 1);
    }
    for (const problem of outcome.problems) {
      this.problemCount++;
      if (this.problems.length < MAX_PROBLEMS) {
        this.problems.push(describeProblem(this.seed, plan, problem, oracle.refusedAt));
      }
    }
  }

  report(elapsedMs: number, maxEventLoopDelayMs: number): FuzzReport {
    return {
      seed: this.seed,
      elapsedMs,
      maxEventLoopDelayMs,
      connections: this.connections,
      byKind: { ...this.byKind },
      framesSent: this.framesSent,
      mutatedFrames: this.mutatedFrames,
      bytesSent: this.bytesSent,
      refusedByCodec: this.refusedByCodec,
      refusedAndClosed: this.refusedAndClosed,
      closedByBroker: this.closedByBroker,
      lastingQueues: this.lastingQueues,
      messages: this.messages,
      problems: [...this.problems],
      problemCount: this.problemCount,
      rejections: [...this.rejections].sort((a, b) => b[1] - a[1]),
    };
  }
}

const SHOWN_FRAMES = 6;
const SHOWN_BYTES = 96;

/**
 * A problem with the seeds and the last frames sent up to the one the codec refused, if it
 * refused one (hex, each cut at SHOWN_BYTES).
 */
export function describeProblem(seed: number, plan: ConnectionPlan, problem: string, refusedAt = -1): string {
  const end = refusedAt >= 0 ? refusedAt + 1 : plan.frames.length;
  const frames = plan.frames.slice(Math.max(0, end - SHOWN_FRAMES), end).map((frame) => {
    const hex = frame.bytes.subarray(0, SHOWN_BYTES).toString('hex');
    const more = frame.bytes.length > SHOWN_BYTES ? `… (${frame.bytes.length} bytes)` : '';
    const mutation = frame.mutation === null ? '' : ` (${frame.mutation})`;
    return `  ${frame.label}${mutation}: ${hex}${more}`;
  });
  const skipped = end - frames.length;
  const after = plan.frames.length - end;
  return [
    `seed ${seed}, connection seed ${plan.seed} (${plan.kind}, ${plan.frames.length} frames): ${problem}`,
    ...(skipped > 0 ? [`  (${skipped} earlier frames not shown)`] : []),
    ...frames,
    ...(after > 0 ? [`  (${after} later frames not shown)`] : []),
  ].join('\n');
}
