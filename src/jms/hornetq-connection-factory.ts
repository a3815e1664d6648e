import {
  clientTlsProblems,
  parseConnectionUrl,
  ServerLocator,
  type AbortOptions,
  type ClientTlsOptions,
  type TransportConfiguration,
} from '../core/client';
import { loggerProblem, type Logger } from '../core/remoting';
import { namedSettingProblem } from '../lang/settings';
import {
  clientOptionsOf,
  DEFAULT_CONNECTION_FACTORY_CONFIG,
  type ConnectionFactoryConfig,
} from './connection-factory-config';
import { CONNECTION_FACTORY_SETTINGS, type ConnectionFactorySettings } from './connection-factory-settings';
import { IllegalStateException, JMSException } from './exceptions';
import { HornetQConnection } from './hornetq-connection';
import { checkSessionMode, HornetQJMSContext, JMSContext } from './hornetq-jms-context';
import { runtimeCall } from './jms-runtime-error';
import { SharedConnection } from './shared-connection';

/** What a connection URL cannot carry: TLS material held in memory, and where to log. */
export interface ConnectionUrlOptions {
  tls?: ClientTlsOptions | undefined;
  /** Where the connections log (reconnects, failovers, broker errors); see setLogger. */
  logger?: Logger | undefined;
}

const USED = 'Cannot set attribute on HornetQConnectionFactory after it has been used';

/** The JMS interface name, for code written against javax.jms (the class is its only implementation). */
export type ConnectionFactory = HornetQConnectionFactory;

/**
 * Creates JMS connections to the brokers named by its connectors, with HornetQ's settings and
 * defaults. HornetQ's rule: once createConnection has been called (even if it failed), every
 * setter throws IllegalStateException.
 */
export class HornetQConnectionFactory {
  private readonly connectors: TransportConfiguration[];
  private readonly config: ConnectionFactoryConfig = { ...DEFAULT_CONNECTION_FACTORY_CONFIG };
  private readonly connections = new Set<HornetQConnection>();
  /** Made at the first createConnection, when the settings are frozen; shared by every connection. */
  private locator: ServerLocator | null = null;
  private used = false;
  private logger: Logger | null = null;

  /** A factory without HA (HornetQ's createConnectionFactoryWithoutHA); no connector: localhost:5445. */
  constructor(...connectors: TransportConfiguration[]);
  /**
   * HornetQ's `(ha, connectors...)`: with `ha`, a connection whose server fails is dialled again,
   * then the backup the cluster topology names for it, and re-created there (ClientOptions.ha).
   */
  constructor(ha: boolean, ...connectors: TransportConfiguration[]);
  /**
   * From a connection URL, as Artemis' and nats' clients take one:
   * `tcp://host:5445?ha=true&reconnectAttempts=-1`, or `tls://host:5443?trustStorePath=ca.pem`
   * (parseConnectionUrl: Artemis' or HornetQ's parameter names). A URL that cannot be read throws
   * here, a RangeError (ERR_INVALID_ARG_VALUE) naming the parameter and its position. TLS material
   * held in memory goes in `options.tls` (see ClientTlsOptions), beside or instead of the URL's paths.
   */
  constructor(url: string, options?: ConnectionUrlOptions);
  constructor(...args: Array<boolean | string | TransportConfiguration | ConnectionUrlOptions | undefined>) {
    if (typeof args[0] === 'string') {
      const { connector, settings } = parseConnectionUrl(args[0]);
      Object.assign(this.config, settings);
      const { tls, logger } = (args[1] as ConnectionUrlOptions | undefined) ?? {};
      if (tls !== undefined) this.config.tls = tls;
      if (logger !== undefined) this.setLogger(logger);
      this.connectors = [connector];
      return;
    }
    this.config.ha = args[0] === true;
    const connectors = args.filter(
      (arg): arg is TransportConfiguration => typeof arg === 'object' && arg !== null,
    );
    this.connectors =
      connectors.length > 0 ? connectors.map((c) => ({ ...c })) : [{ host: 'localhost', port: 5445 }];
  }

  /**
   * Connects and authenticates. Aborting `options.signal` rejects with its reason: an aborted
   * signal opens no socket; while connecting or between attempts (initial-connect-attempts,
   * retry-interval) the socket being opened is destroyed and no retry follows; while waiting for
   * the broker (its first answer, the login, the client id) the connection is closed. Every
   * socket and timer it made is released either way.
   */
  async createConnection(
    userName?: string,
    password?: string,
    options: AbortOptions = {},
  ): Promise<HornetQConnection> {
    const connection = await HornetQConnection.open(
      {
        locator: this.getServerLocator(),
        config: { ...this.config },
        username: userName ?? null,
        password: password ?? null,
        onClose: (closed) => this.connections.delete(closed),
      },
      options,
    );
    this.connections.add(connection);
    return connection;
  }

  /**
   * JMS 2.0: a JMSContext on a connection of its own (see HornetQJMSContext), in `sessionMode`
   * (default AUTO_ACKNOWLEDGE). As JMS 2.0's overloads: `createContext()`,
   * `createContext(sessionMode)`, `createContext(userName, password)`, `createContext(userName,
   * password, sessionMode)`, each with AbortOptions last, which abort the connect as for
   * createConnection. Failures are JMSRuntimeException and its subclasses (bad credentials:
   * JMSSecurityRuntimeException; a session mode other than the four: JMSRuntimeException).
   */
  createContext(options?: AbortOptions): Promise<HornetQJMSContext>;
  createContext(sessionMode: number, options?: AbortOptions): Promise<HornetQJMSContext>;
  createContext(
    userName: string | undefined,
    password: string | undefined,
    sessionMode?: number,
    options?: AbortOptions,
  ): Promise<HornetQJMSContext>;
  async createContext(...args: unknown[]): Promise<HornetQJMSContext> {
    const { userName, password, sessionMode, options } = contextArguments(args);
    checkSessionMode(sessionMode);
    const connection = await runtimeCall(
      () => this.createConnection(userName, password, options),
      options.signal,
    );
    return new HornetQJMSContext(connection, new SharedConnection(connection), sessionMode);
  }

  /**
   * The locator every connection of this factory comes from (HornetQ's getServerLocator): the
   * cluster topology they share, and announce() for a live/backup pair whose brokers announce
   * none. Made from the settings at its first use (or the first createConnection); from then on
   * the setters throw, as after createConnection.
   */
  getServerLocator(): ServerLocator {
    this.used = true;
    this.locator ??= this.newLocator();
    return this.locator;
  }

  /**
   * HornetQ loads the policy class here, at the first connection, so a factory bound from
   * hornetq-jms.xml with a name this client does not know fails here, naming it and the known ones.
   */
  private newLocator(): ServerLocator {
    try {
      return new ServerLocator({
        ...clientOptionsOf(this.config),
        connectors: this.connectors,
        logger: this.logger,
      });
    } catch (error) {
      throw new JMSException((error as Error).message, 'INVALID_CONFIGURATION', { cause: error });
    }
  }

  /**
   * Closes every connection this factory made (the factory itself stays usable). `signal` is
   * passed to each connection's close: aborting it closes them without waiting for the broker, and
   * this rejects with its reason once they are closed.
   */
  async close({ signal }: AbortOptions = {}): Promise<void> {
    await Promise.allSettled([...this.connections].map((connection) => connection.close({ signal })));
    signal?.throwIfAborted();
  }

  /** `await using`: closes every connection this factory made (it holds them), as close() does. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  getStaticConnectors(): TransportConfiguration[] {
    return this.connectors.map((c) => ({ ...c }));
  }

  isHA(): boolean {
    return this.config.ha;
  }
  /**
   * Ours: TLS material held in memory for this factory's TLS connectors (see ClientTlsOptions), for
   * a factory looked up or made from connectors; a URL's factory takes it as its second argument.
   */
  getTlsOptions(): ClientTlsOptions | undefined {
    return this.config.tls;
  }
  setTlsOptions(tls: ClientTlsOptions | undefined): void {
    this.set('tls', tls);
  }

  /**
   * Ours: where this factory's connections log their warnings (a reconnect, a failover, an error
   * the broker reported), with pino's level methods (Logger: a pino logger as it is). Null, the
   * default: nothing is written anywhere. The used-rule applies as for every setter.
   */
  getLogger(): Logger | null {
    return this.logger;
  }
  setLogger(logger: Logger | null): void {
    if (this.used) throw new IllegalStateException(USED);
    const problem = logger === null ? null : loggerProblem(logger);
    if (problem !== null) throw new JMSException(problem, 'INVALID_CONFIGURATION');
    this.logger = logger;
  }

  getConfirmationWindowSize(): number {
    return this.config.confirmationWindowSize;
  }
  setConfirmationWindowSize(bytes: number): void {
    this.set('confirmationWindowSize', bytes);
  }
  getReconnectAttempts(): number {
    return this.config.reconnectAttempts;
  }
  setReconnectAttempts(attempts: number): void {
    this.set('reconnectAttempts', attempts);
  }
  getRetryInterval(): number {
    return this.config.retryInterval;
  }
  setRetryInterval(ms: number): void {
    this.set('retryInterval', ms);
  }
  getRetryIntervalMultiplier(): number {
    return this.config.retryIntervalMultiplier;
  }
  setRetryIntervalMultiplier(factor: number): void {
    this.set('retryIntervalMultiplier', factor);
  }
  getMaxRetryInterval(): number {
    return this.config.maxRetryInterval;
  }
  setMaxRetryInterval(ms: number): void {
    this.set('maxRetryInterval', ms);
  }
  getRetryJitter(): number {
    return this.config.retryJitter;
  }
  setRetryJitter(fraction: number): void {
    this.set('retryJitter', fraction);
  }
  getInitialConnectAttempts(): number {
    return this.config.initialConnectAttempts;
  }
  setInitialConnectAttempts(attempts: number): void {
    this.set('initialConnectAttempts', attempts);
  }
  isFailoverOnInitialConnection(): boolean {
    return this.config.failoverOnInitialConnection;
  }
  setFailoverOnInitialConnection(on: boolean): void {
    this.set('failoverOnInitialConnection', on);
  }
  getClientFailureCheckPeriod(): number {
    return this.config.clientFailureCheckPeriod;
  }
  setClientFailureCheckPeriod(ms: number): void {
    this.set('clientFailureCheckPeriod', ms);
  }
  getConnectionTTL(): number {
    return this.config.connectionTTL;
  }
  setConnectionTTL(ms: number): void {
    this.set('connectionTTL', ms);
  }
  getCallTimeout(): number {
    return this.config.callTimeout;
  }
  setCallTimeout(ms: number): void {
    this.set('callTimeout', ms);
  }
  getCallFailoverTimeout(): number {
    return this.config.callFailoverTimeout;
  }
  setCallFailoverTimeout(ms: number): void {
    this.set('callFailoverTimeout', ms);
  }
  getConsumerWindowSize(): number {
    return this.config.consumerWindowSize;
  }
  setConsumerWindowSize(bytes: number): void {
    this.set('consumerWindowSize', bytes);
  }
  getConsumerMaxRate(): number {
    return this.config.consumerMaxRate;
  }
  setConsumerMaxRate(perSecond: number): void {
    this.set('consumerMaxRate', perSecond);
  }
  getProducerWindowSize(): number {
    return this.config.producerWindowSize;
  }
  setProducerWindowSize(bytes: number): void {
    this.set('producerWindowSize', bytes);
  }
  getProducerMaxRate(): number {
    return this.config.producerMaxRate;
  }
  setProducerMaxRate(perSecond: number): void {
    this.set('producerMaxRate', perSecond);
  }
  getMinLargeMessageSize(): number {
    return this.config.minLargeMessageSize;
  }
  setMinLargeMessageSize(bytes: number): void {
    this.set('minLargeMessageSize', bytes);
  }
  /** The largest large-message body a consumer takes; a larger one is refused back to the broker. */
  getMaxLargeMessageBytes(): number {
    return this.config.maxLargeMessageBytes;
  }
  setMaxLargeMessageBytes(bytes: number): void {
    this.set('maxLargeMessageBytes', bytes);
  }
  isCompressLargeMessage(): boolean {
    return this.config.compressLargeMessage;
  }
  setCompressLargeMessage(on: boolean): void {
    this.set('compressLargeMessage', on);
  }
  isCacheLargeMessagesClient(): boolean {
    return this.config.cacheLargeMessagesClient;
  }
  setCacheLargeMessagesClient(on: boolean): void {
    this.set('cacheLargeMessagesClient', on);
  }
  isBlockOnAcknowledge(): boolean {
    return this.config.blockOnAcknowledge;
  }
  setBlockOnAcknowledge(on: boolean): void {
    this.set('blockOnAcknowledge', on);
  }
  isBlockOnDurableSend(): boolean {
    return this.config.blockOnDurableSend;
  }
  setBlockOnDurableSend(on: boolean): void {
    this.set('blockOnDurableSend', on);
  }
  isBlockOnNonDurableSend(): boolean {
    return this.config.blockOnNonDurableSend;
  }
  setBlockOnNonDurableSend(on: boolean): void {
    this.set('blockOnNonDurableSend', on);
  }
  /** Ours (see ClientOptions.duplicateIdOnDurableSend): each persistent send gets a duplicate id. */
  isDuplicateIdOnDurableSend(): boolean {
    return this.config.duplicateIdOnDurableSend;
  }
  setDuplicateIdOnDurableSend(on: boolean): void {
    this.set('duplicateIdOnDurableSend', on);
  }
  isAutoGroup(): boolean {
    return this.config.autoGroup;
  }
  setAutoGroup(on: boolean): void {
    this.set('autoGroup', on);
  }
  getGroupID(): string | null {
    return this.config.groupID;
  }
  setGroupID(id: string | null): void {
    this.set('groupID', id);
  }
  isPreAcknowledge(): boolean {
    return this.config.preAcknowledge;
  }
  setPreAcknowledge(on: boolean): void {
    this.set('preAcknowledge', on);
  }
  getDupsOKBatchSize(): number {
    return this.config.dupsOKBatchSize;
  }
  setDupsOKBatchSize(bytes: number): void {
    this.set('dupsOKBatchSize', bytes);
  }
  getTransactionBatchSize(): number {
    return this.config.transactionBatchSize;
  }
  setTransactionBatchSize(bytes: number): void {
    this.set('transactionBatchSize', bytes);
  }
  getClientID(): string | null {
    return this.config.clientID;
  }
  setClientID(id: string | null): void {
    this.set('clientID', id);
  }
  /**
   * Where each new connection goes among the cluster's live servers (the static connectors until a
   * topology is known): HornetQ's or Artemis' policy class names, mapped to ours, or `key-sticky`
   * (ours: a connection with a client id always on the same node). A name this client does not
   * know is kept, as HornetQ keeps a class name, and createConnection fails naming it.
   */
  getConnectionLoadBalancingPolicyClassName(): string {
    return this.config.connectionLoadBalancingPolicyClassName;
  }
  setConnectionLoadBalancingPolicyClassName(className: string): void {
    this.set('connectionLoadBalancingPolicyClassName', className);
  }
  /** Recorded only: Node has no thread pools. */
  isUseGlobalPools(): boolean {
    return this.config.useGlobalPools;
  }
  setUseGlobalPools(on: boolean): void {
    this.set('useGlobalPools', on);
  }
  /** Recorded only: Node has no thread pools. */
  getScheduledThreadPoolMaxSize(): number {
    return this.config.scheduledThreadPoolMaxSize;
  }
  setScheduledThreadPoolMaxSize(threads: number): void {
    this.set('scheduledThreadPoolMaxSize', threads);
  }
  /** Recorded only: Node has no thread pools. */
  getThreadPoolMaxSize(): number {
    return this.config.threadPoolMaxSize;
  }
  setThreadPoolMaxSize(threads: number): void {
    this.set('threadPoolMaxSize', threads);
  }

  /**
   * @internal Sets each setting given as its setter would (the used-rule, the range): how
   * hornetq-jms.xml's definitions and the command's --url reach a factory. `ha` is not among them:
   * it is a constructor argument.
   */
  applySettings(settings: Partial<Omit<ConnectionFactorySettings, 'ha'>>): this {
    for (const [name, value] of Object.entries(settings) as Array<[keyof ConnectionFactorySettings, unknown]>)
      if (value !== undefined) this.set(name, value as never);
    return this;
  }

  /** Checks the used-rule and the value against the settings table, then records it. */
  private set<K extends keyof ConnectionFactoryConfig>(name: K, value: ConnectionFactoryConfig[K]): void {
    if (this.used) throw new IllegalStateException(USED);
    const problem =
      name === 'tls'
        ? tlsProblem(value)
        : namedSettingProblem(
            name,
            CONNECTION_FACTORY_SETTINGS[name as keyof ConnectionFactorySettings],
            value,
          );
    if (problem !== null) throw new JMSException(problem, 'INVALID_CONFIGURATION');
    this.config[name] = value;
  }
}

interface ContextArguments {
  userName: string | undefined;
  password: string | undefined;
  sessionMode: number;
  options: AbortOptions;
}

/** Which createContext overload was called: told apart by the first argument's type. */
function contextArguments(args: unknown[]): ContextArguments {
  const [first, second, third, fourth] = args;
  const defaults = { userName: undefined, password: undefined, sessionMode: JMSContext.AUTO_ACKNOWLEDGE };
  if (args.length === 0) return { ...defaults, options: {} };
  if (typeof first === 'object' && first !== null) return { ...defaults, options: first as AbortOptions };
  if (typeof first === 'number') return { ...defaults, sessionMode: first, options: optionsOf(second) };
  return {
    userName: optionalString(first, 'userName'),
    password: optionalString(second, 'password'),
    sessionMode: third === undefined ? JMSContext.AUTO_ACKNOWLEDGE : (third as number),
    options: optionsOf(fourth),
  };
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new TypeError(`createContext: ${name} must be a string, got ${typeof value}`);
  return value;
}

function optionsOf(value: unknown): AbortOptions {
  return typeof value === 'object' && value !== null ? (value as AbortOptions) : {};
}

function tlsProblem(value: unknown): string | null {
  const problems = clientTlsProblems(value);
  return problems.length === 0 ? null : problems.join('; ');
}
