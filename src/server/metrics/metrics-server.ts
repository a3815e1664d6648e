import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { HornetQException } from '../../core/protocol';
import { invalidValue } from '../../lang/argument-errors';
import { silentLogger, type Logger } from '../../core/remoting';
import type { Broker } from '../broker';
import { closeHttp, httpUrl, listenHttp } from '../http-listener';
import { brokerHealth } from './broker-health';
import { BrokerMetrics } from './broker-metrics';

/** The Content-Type of Prometheus' text exposition format 0.0.4, which /metrics answers in (prom-client's). */
export const EXPOSITION_CONTENT_TYPE: 'text/plain; version=0.0.4; charset=utf-8' =
  Registry.PROMETHEUS_CONTENT_TYPE;

/** Where the metrics endpoint listens and what one client may make it hold. */
export interface MetricsServerOptions {
  /** Loopback by default: metrics name queues and client addresses, so exposing them is a choice. */
  host: string;
  /** 0 picks a free port (MetricsServer.port tells which). */
  port: number;
  /** A request body is ignored; one larger than this closes its connection. */
  maxRequestBodyBytes: number;
  /** Scrapers connected at a time; more are refused by the socket layer. */
  maxConnections: number;
  /** A request not received in full by then is answered 408 and closed (ms). */
  requestTimeout: number;
  logger: Logger;
}

export const DEFAULT_METRICS_SERVER_OPTIONS: Readonly<MetricsServerOptions> = Object.freeze({
  host: '127.0.0.1',
  port: 9404,
  maxRequestBodyBytes: 16 * 1024,
  maxConnections: 64,
  requestTimeout: 10_000,
  logger: silentLogger,
});

const METHODS = 'GET, HEAD';
/** A client chooses the URL: what of it is logged is cut to this length. */
const LOGGED_URL_CHARS = 200;

/** Every value outside its range, in one RangeError (ERR_INVALID_ARG_VALUE), as the broker's options are checked. */
function validate(options: MetricsServerOptions): void {
  const ranges: Array<[keyof MetricsServerOptions, number, number]> = [
    ['port', 0, 65_535],
    ['maxRequestBodyBytes', 0, 1024 * 1024 * 1024],
    ['maxConnections', 1, 1_000_000],
    ['requestTimeout', 1, 2_147_483_647],
  ];
  const problems: string[] = [];
  for (const [name, min, max] of ranges) {
    const value = options[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      problems.push(`metrics ${name} must be an integer in ${min}..${max} (actual value: ${String(value)})`);
  }
  if (options.host.trim() === '') problems.push('metrics host must name a host or address (it is empty)');
  if (problems.length > 0) throw invalidValue(problems.join('; '));
}

/**
 * Serves `GET /metrics` (Prometheus text format 0.0.4) and `GET /health` for a broker over
 * node:http. The broker is read at each request, so one given as a function (EmbeddedJMS makes a
 * new broker at each start) is followed across restarts; null means not started.
 */
export class MetricsServer {
  readonly options: Readonly<MetricsServerOptions>;
  private server: Server | null = null;
  /** Settles once the server listens (or failed to); close() waits for it, so no listener is left behind. */
  private listening: Promise<void> = Promise.resolve();
  private readonly source: () => Broker | null;
  /** The broker's registry and its background hooks: from start() to close(). */
  private metrics: BrokerMetrics | null = null;

  constructor(broker: Broker | (() => Broker | null), options: Partial<MetricsServerOptions> = {}) {
    this.options = { ...DEFAULT_METRICS_SERVER_OPTIONS, ...options };
    validate(this.options);
    this.source = typeof broker === 'function' ? broker : () => broker;
  }

  /** The port bound (the one picked for port 0); throws before start(). */
  get port(): number {
    const address = this.server?.address();
    if (typeof address !== 'object' || address === null)
      throw new HornetQException('ILLEGAL_STATE', 'the metrics server is not listening (call start() first)');
    return address.port;
  }

  /** http://host:port/metrics of the bound port. */
  get url(): string {
    return httpUrl(this.options.host, this.port, '/metrics');
  }

  async start(): Promise<void> {
    if (this.server !== null)
      throw new HornetQException('ILLEGAL_STATE', 'the metrics server is already started');
    const server = createServer((request, response) => this.handle(request, response));
    // Taken at once, so that a second start() while this one listens is refused too.
    this.server = server;
    this.listening = listenHttp(server, this.options, 'metrics server');
    this.metrics = new BrokerMetrics(this.source);
    try {
      await this.listening;
    } catch (error) {
      this.closeMetrics();
      this.server = null;
      throw error;
    }
  }

  /** Stops listening and destroys every open connection (a scraper's keep-alive socket too). */
  async close(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    this.closeMetrics();
    await closeHttp(server, this.listening);
  }

  private closeMetrics(): void {
    this.metrics?.close();
    this.metrics = null;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.answerRequest(request, response).catch((error: unknown) => this.failed(request, response, error));
  }

  private async answerRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.ignoreBody(request, response);
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics' && path !== '/health')
      return this.answer(response, 404, 'text/plain', 'not found: try /metrics or /health\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', METHODS);
      return this.answer(
        response,
        405,
        'text/plain',
        `${request.method ?? 'this method'} is not allowed: ${METHODS}\n`,
      );
    }
    const head = request.method === 'HEAD';
    if (path === '/metrics') {
      const metrics = this.metrics;
      if (metrics === null)
        return this.answer(response, 503, 'text/plain', 'the metrics server is closing\n');
      this.answer(response, 200, EXPOSITION_CONTENT_TYPE, await metrics.scrape(), head);
    } else {
      const health = brokerHealth(this.source());
      this.answer(response, health.httpStatus, 'application/json', `${JSON.stringify(health.body)}\n`, head);
    }
  }

  private failed(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.options.logger.error(
      { err: error },
      `metrics server: answering ${request.method ?? '?'} ${(request.url ?? '?').slice(0, LOGGED_URL_CHARS)} failed: ${reason}`,
    );
    if (!response.headersSent) this.answer(response, 500, 'text/plain', `internal error: ${reason}\n`);
    else response.destroy();
  }

  /** Drains a body nobody reads, so the connection stays usable; one past the bound closes it. */
  private ignoreBody(request: IncomingMessage, response: ServerResponse): void {
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > this.options.maxRequestBodyBytes) {
        response.shouldKeepAlive = false;
        request.destroy();
      }
    });
    // An aborted upload errors the request: heard here, or it would be an uncaught error in the broker.
    request.on('error', () => undefined);
  }

  private answer(response: ServerResponse, status: number, type: string, body: string, head = false): void {
    const bytes = Buffer.from(body, 'utf8');
    response.writeHead(status, {
      'Content-Type': type.includes('charset') ? type : `${type}; charset=utf-8`,
      'Content-Length': bytes.length,
      'Cache-Control': 'no-store',
    });
    response.end(head ? undefined : bytes);
  }
}
