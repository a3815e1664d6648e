import { reviveTagged } from '../../fixtures/hornetq-2.4.7/golden-vectors';
import { JavaProcess } from './java-process';

/**
 * HornetQ 2.4.7's own Java JMS client, driven from a test through test/interop/java's JmsDriver:
 * one JSON command per line, one answer per command, matched by id. Values JSON cannot hold
 * travel tagged ({$bytes}, {$bigint}, {$double}; see test/fixtures/hornetq-2.4.7/README.md) and
 * come back as Buffer, bigint and number. Every call is bounded; a Java failure rejects with a
 * JavaError naming the Java exception class.
 */

/** A Java value as the driver writes it: [javaType, value]. */
export type JavaTyped =
  | ['null', null]
  | ['boolean', boolean]
  | ['byte' | 'short' | 'int' | 'float' | 'double', number]
  | ['long', number | bigint]
  | ['string', string | null]
  | ['char', string]
  | ['bytes', Buffer];

export type DestinationKind = 'queue' | 'topic' | 'tempQueue' | 'tempTopic';

export interface DestinationRef {
  type: DestinationKind;
  name: string;
  /** HornetQ's address (jms.queue.NAME, ...); set on what the driver reports. */
  address?: string;
}

export type MessageClass =
  'Message' | 'TextMessage' | 'BytesMessage' | 'MapMessage' | 'StreamMessage' | 'ObjectMessage';

/**
 * What Java sends. body: TextMessage string | null; BytesMessage Buffer; MapMessage {name:
 * JavaTyped}; StreamMessage JavaTyped[]; ObjectMessage a string (Java-serialized as a String).
 */
export interface OutgoingJavaMessage {
  class?: MessageClass;
  headers?: {
    JMSCorrelationID?: string;
    JMSCorrelationIDAsBytes?: Buffer;
    JMSType?: string;
    JMSReplyTo?: DestinationRef;
  };
  properties?: Record<string, JavaTyped>;
  body?: string | null | Buffer | Record<string, JavaTyped> | JavaTyped[];
}

/** A message as the Java client received it: every JMS header, its properties, its body. */
export interface ReceivedJavaMessage {
  class: MessageClass;
  JMSMessageID: string | null;
  JMSDestination: DestinationRef | null;
  JMSReplyTo: DestinationRef | null;
  JMSType: string | null;
  JMSCorrelationID: string | null;
  JMSDeliveryMode: 'PERSISTENT' | 'NON_PERSISTENT';
  JMSPriority: number;
  JMSExpiration: number;
  JMSTimestamp: number;
  /** JMS 2.0: when the message may be delivered (HornetQ's _HQ_SCHED_DELIVERY), 0 without a delivery delay. */
  JMSDeliveryTime: number;
  JMSRedelivered: boolean;
  properties: Record<string, JavaTyped>;
  body: unknown;
}

export interface SentJavaMessage {
  JMSMessageID: string | null;
  JMSTimestamp: number;
  JMSExpiration: number;
  /** JMS 2.0: the sending client's clock plus the producer's delivery delay; 0 without one. */
  JMSDeliveryTime: number;
  /** How long producer.send took, in ms (the message built and the JSON read before it). */
  sendMs: number;
}

export interface SendOptions {
  deliveryMode?: 'PERSISTENT' | 'NON_PERSISTENT';
  priority?: number;
  timeToLive?: number;
  /** Send the message this many times (one answer for all). */
  count?: number;
  /** With count: each copy carries its index as this int property. */
  sequenceProperty?: string;
  disableMessageID?: boolean;
  disableMessageTimestamp?: boolean;
  /** JMS 2.0: the producer's delivery delay in ms. */
  deliveryDelay?: number;
}

/** What an asynchronous send (JMS 2.0, with a CompletionListener) answers: the messages and the listener's handle. */
export interface AsyncSend {
  sent: SentJavaMessage[];
  listener: string;
}

/** What a CompletionListener was called with: the ids it completed, and the failures, in call order. */
export interface Completions {
  completed: string[];
  failed: Array<{ JMSMessageID: string; error: JavaErrorInfo }>;
}

export type AckMode =
  'AUTO_ACKNOWLEDGE' | 'CLIENT_ACKNOWLEDGE' | 'DUPS_OK_ACKNOWLEDGE' | 'SESSION_TRANSACTED';

export interface ConnectOptions {
  port: number;
  host?: string;
  clientId?: string;
  /** HornetQ's ha: a factory made with HA follows its live's backup (createConnectionFactoryWithHA). */
  ha?: boolean;
  username?: string;
  password?: string | null;
  /** HornetQConnectionFactory settings by their setter names: {confirmationWindowSize: 1048576, ...}. */
  factory?: Record<string, number | boolean | string | null>;
  /** More netty connector params, by HornetQ's names: {'ssl-enabled': true, 'trust-store-path': ...}. */
  transport?: Record<string, string | number | boolean>;
}

/** A Java exception as the driver reports it. */
export interface JavaErrorInfo {
  class: string;
  message: string | null;
  errorCode?: string;
  cause?: JavaErrorInfo;
}

export class JavaError extends Error {
  constructor(
    readonly op: string,
    readonly info: JavaErrorInfo,
  ) {
    super(`Java ${op} failed: ${describeJavaError(info)}`);
    this.name = 'JavaError';
  }

  get javaClass(): string {
    return this.info.class;
  }
}

function describeJavaError(info: JavaErrorInfo): string {
  const own = `${info.class}: ${info.message ?? ''}`;
  return info.cause === undefined ? own : `${own} (caused by ${describeJavaError(info.cause)})`;
}

/** Lines without an id: the driver's listeners (exception, failover) report through them. */
export interface DriverEvent {
  event: string;
  connection?: string;
  type?: string;
  error?: JavaErrorInfo;
}

type Answer = Record<string, unknown> & { id: number; ok: boolean; error?: JavaErrorInfo };

interface Pending {
  op: string;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** A JVM's start plus HornetQ's class loading, on a loaded 2-core machine. */
const READY_TIMEOUT_MS = 120_000;
/** The default bound of a command that does not wait by itself (receive adds its own timeout). */
export const CALL_TIMEOUT_MS = 60_000;
/** The most events kept (a failing link can produce many). */
const MAX_EVENTS = 1000;

/** A member of the topology as HornetQ's Java client holds it (host and port as the server announced them). */
export interface JavaTopologyMember {
  nodeId: string;
  live: { host: string; port: string } | null;
  backup: { host: string; port: string } | null;
}

export class JmsDriver {
  readonly events: DriverEvent[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly eventWaiters = new Set<() => void>();
  private nextId = 1;

  private constructor(private readonly process: JavaProcess) {
    process.onLine((line) => this.take(line));
    void process.exited.then((exit) => {
      const why = new Error(
        `the JMS driver exited (${JSON.stringify(exit)}); stderr: ${process.stderrTail()}`,
      );
      for (const call of this.pending.values()) {
        clearTimeout(call.timer);
        call.reject(why);
      }
      this.pending.clear();
    });
  }

  /** A driver JVM; `systemProperties` become its -D options (read by Java before any command). */
  static async start(systemProperties: Readonly<Record<string, string>> = {}): Promise<JmsDriver> {
    const process = JavaProcess.start({
      module: 'hornetq',
      mainClass: 'interop.hornetq.JmsDriver',
      args: [],
      jvmOptions: Object.entries(systemProperties).map(([name, value]) => `-D${name}=${value}`),
      label: 'HornetQ 2.4.7 JMS driver',
    });
    try {
      await process.waitForLine((line) => line.includes('"event":"ready"'), 'ready event', READY_TIMEOUT_MS);
    } catch (error) {
      await process.stop();
      throw error;
    }
    return new JmsDriver(process);
  }

  /** Runs one command; resolves with its answer, rejects with JavaError if Java threw. */
  call(op: string, fields: Record<string, unknown> = {}, timeoutMs = CALL_TIMEOUT_MS): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the JMS driver did not answer ${op} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { op, resolve, reject, timer });
      try {
        this.process.writeLine(JSON.stringify({ id, op, ...fields }, tagBinary));
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  async connect(options: ConnectOptions): Promise<string> {
    const { port, host = '127.0.0.1', ...rest } = options;
    return (await this.call('connect', { host, port, ...rest })).connection as string;
  }

  async start(connection: string): Promise<void> {
    await this.call('start', { connection });
  }

  async stop(connection: string): Promise<void> {
    await this.call('stop', { connection });
  }

  async createSession(
    connection: string,
    transacted = false,
    ackMode: AckMode = 'AUTO_ACKNOWLEDGE',
  ): Promise<string> {
    return (await this.call('createSession', { connection, transacted, ackMode })).session as string;
  }

  async send(
    session: string,
    destination: DestinationRef,
    message: OutgoingJavaMessage,
    options: SendOptions = {},
  ): Promise<SentJavaMessage[]> {
    return (await this.call('send', { session, destination, message, ...options })).sent as SentJavaMessage[];
  }

  /**
   * JMS 2.0's send(..., CompletionListener): every copy with one listener, whose calls
   * `completions` reports. The answer comes when the send calls returned, not their completions.
   */
  async sendAsync(
    session: string,
    destination: DestinationRef,
    message: OutgoingJavaMessage,
    options: SendOptions = {},
  ): Promise<AsyncSend> {
    const answer = await this.call('send', { session, destination, message, ...options, async: true });
    return { sent: answer.sent as SentJavaMessage[], listener: answer.listener as string };
  }

  /** Waits up to `timeoutMs` for `count` calls of an asynchronous send's listener; what it got by then. */
  async completions(listener: string, count: number, timeoutMs: number): Promise<Completions> {
    const answer = await this.call(
      'completions',
      { listener, count, timeout: timeoutMs },
      timeoutMs + CALL_TIMEOUT_MS,
    );
    return { completed: answer.completed as string[], failed: answer.failed as Completions['failed'] };
  }

  async createConsumer(
    session: string,
    destination: DestinationRef,
    options: { selector?: string; noLocal?: boolean } = {},
  ): Promise<string> {
    return (await this.call('createConsumer', { session, destination, ...options })).consumer as string;
  }

  async createDurableSubscriber(
    session: string,
    topic: DestinationRef,
    name: string,
    options: { selector?: string; noLocal?: boolean } = {},
  ): Promise<string> {
    return (await this.call('createDurableSubscriber', { session, destination: topic, name, ...options }))
      .consumer as string;
  }

  /** JMS 2.0's createSharedConsumer: a shared non-durable subscription of `topic` named `name`. */
  async createSharedConsumer(
    session: string,
    topic: DestinationRef,
    name: string,
    options: { selector?: string } = {},
  ): Promise<string> {
    return (await this.call('createSharedConsumer', { session, destination: topic, name, ...options }))
      .consumer as string;
  }

  /** JMS 2.0's createSharedDurableConsumer: a shared durable subscription of `topic` named `name`. */
  async createSharedDurableConsumer(
    session: string,
    topic: DestinationRef,
    name: string,
    options: { selector?: string } = {},
  ): Promise<string> {
    return (await this.call('createSharedDurableConsumer', { session, destination: topic, name, ...options }))
      .consumer as string;
  }

  async unsubscribe(session: string, name: string): Promise<void> {
    await this.call('unsubscribe', { session, name });
  }

  async receive(consumer: string, timeoutMs: number): Promise<ReceivedJavaMessage | null> {
    const answer = await this.call('receive', { consumer, timeout: timeoutMs }, timeoutMs + CALL_TIMEOUT_MS);
    return answer.message as ReceivedJavaMessage | null;
  }

  async receiveNoWait(consumer: string): Promise<ReceivedJavaMessage | null> {
    return (await this.call('receiveNoWait', { consumer })).message as ReceivedJavaMessage | null;
  }

  /** Up to `count` messages, each waited for up to `timeoutMs`; fewer when one does not come. */
  async receiveMany(consumer: string, count: number, timeoutMs: number): Promise<ReceivedJavaMessage[]> {
    const answer = await this.call(
      'receive',
      { consumer, timeout: timeoutMs, count },
      count * timeoutMs + CALL_TIMEOUT_MS,
    );
    return answer.messages as ReceivedJavaMessage[];
  }

  async browse(session: string, queue: DestinationRef, selector?: string): Promise<ReceivedJavaMessage[]> {
    return (
      await this.call('browse', {
        session,
        destination: queue,
        ...(selector === undefined ? {} : { selector }),
      })
    ).messages as ReceivedJavaMessage[];
  }

  async commit(session: string): Promise<void> {
    await this.call('commit', { session });
  }

  async rollback(session: string): Promise<void> {
    await this.call('rollback', { session });
  }

  async recover(session: string): Promise<void> {
    await this.call('recover', { session });
  }

  /** CLIENT_ACKNOWLEDGE: acknowledges through the last message the session received. */
  async acknowledge(session: string): Promise<void> {
    await this.call('acknowledge', { session });
  }

  async createTemporaryQueue(session: string): Promise<DestinationRef> {
    return (await this.call('createTemporaryQueue', { session })).destination as DestinationRef;
  }

  async createTemporaryTopic(session: string): Promise<DestinationRef> {
    return (await this.call('createTemporaryTopic', { session })).destination as DestinationRef;
  }

  async deleteTemporary(destination: DestinationRef): Promise<void> {
    await this.call('deleteTemporary', { destination });
  }

  async closeConsumer(consumer: string): Promise<void> {
    await this.call('closeConsumer', { consumer });
  }

  async closeSession(session: string): Promise<void> {
    await this.call('closeSession', { session });
  }

  async closeConnection(connection: string): Promise<void> {
    await this.call('closeConnection', { connection });
  }

  /** Waits (bounded) for an event `matches` accepts, among those seen so far or still to come. */
  waitForEvent(
    matches: (event: DriverEvent) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<DriverEvent> {
    const seen = this.events.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.events.find(matches);
        if (found === undefined) return;
        clearTimeout(timer);
        this.eventWaiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.eventWaiters.delete(check);
        reject(
          new Error(
            `no driver event ${what} within ${timeoutMs} ms (events: ${JSON.stringify(this.events)})`,
          ),
        );
      }, timeoutMs);
      this.eventWaiters.add(check);
    });
  }

  /** The topology the connection's locator holds: each member's node id and its live's and backup's host and port. */
  async topology(connection: string): Promise<JavaTopologyMember[]> {
    return (await this.call('topology', { connection })).members as JavaTopologyMember[];
  }

  /** Closes every Java connection, then stops the JVM (bounded). */
  async close(): Promise<void> {
    if (this.process.running) {
      try {
        await this.call('exit', {}, CALL_TIMEOUT_MS);
      } catch {
        // Stopping below is bounded and does not need the answer.
      }
    }
    await this.process.stop();
  }

  private take(line: string): void {
    let parsed: Answer | DriverEvent;
    try {
      parsed = JSON.parse(line, reviveTagged) as Answer | DriverEvent;
    } catch {
      return; // Not one of the driver's lines (a JVM warning printed to stdout): not an answer.
    }
    if ('event' in parsed && typeof parsed.event === 'string') {
      if (this.events.length < MAX_EVENTS) this.events.push(parsed as DriverEvent);
      for (const check of [...this.eventWaiters]) check();
      return;
    }
    const answer = parsed as Answer;
    const call = this.pending.get(answer.id);
    if (call === undefined) return; // A call that timed out: its late answer has no one to go to.
    this.pending.delete(answer.id);
    clearTimeout(call.timer);
    if (answer.ok) call.resolve(answer);
    else
      call.reject(
        new JavaError(call.op, answer.error ?? { class: 'unknown', message: JSON.stringify(answer) }),
      );
  }
}

/** JSON.stringify replacer: Buffers and bigints as the driver's tags. */
function tagBinary(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (Buffer.isBuffer(original)) return { $bytes: original.toString('hex') };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'number' && !Number.isFinite(value)) return { $double: String(value) };
  if (Object.is(value, -0)) return { $double: '-0' };
  return value;
}
