import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HornetQException } from '../../core/protocol';
import { silentLogger, type Logger } from '../../core/remoting';
import { invalidValue } from '../../lang/argument-errors';
import type { Broker } from '../broker';
import { closeHttp, httpUrl, listenHttp } from '../http-listener';
import type { SessionGuard } from '../security/session-guard';
import { ConsoleApi } from './console-api';
import { rightsOf } from './console-rights';
import { ConsoleSessions, csrfTokenMatches, type ConsoleSession } from './console-sessions';
import { crossSiteReadProblem, crossSiteWriteProblem, hostProblem } from './cross-site-guard';
import { HttpProblem } from './http-problem';
import { readJsonObject, stringField, type JsonObject } from './request-body';
import { basicCredentials, cookieOf, MAX_CREDENTIAL_CHARS, unauthorized } from './request-credentials';
import { loadPageFiles, type StaticFile } from './static-files';

/** Where the console listens, and what one client may make it hold. */
export interface ConsoleServerOptions {
  /** Loopback by default: the console changes the broker, so exposing it is a choice. */
  host: string;
  /** 0 picks a free port (ConsoleServer.port tells which). */
  port: number;
  /** A POST body larger than this is refused (413) and its connection closed. */
  maxRequestBodyBytes: number;
  /** Clients connected at a time; more are refused by the socket layer. */
  maxConnections: number;
  /** A request not received in full by then is answered 408 and closed (ms). */
  requestTimeout: number;
  /** Logged-in sessions kept at a time; a login beyond it ends the least recently used. */
  maxSessions: number;
  /** A session unused this long is logged out (ms). */
  sessionIdleTimeout: number;
  /** A session is logged out this long after its login, however busy (ms). */
  sessionMaxLifetime: number;
  /**
   * Host names the console answers to (the Host header, without its port), against DNS
   * rebinding. null: the loopback names plus `host` when it is bound to one name or address, and
   * any name when it listens on every interface (0.0.0.0, ::), where the operator knows the names.
   */
  allowedHosts: readonly string[] | null;
  /** Queue rates are measured over at least this long (ms). */
  rateInterval: number;
  logger: Logger;
}

export const DEFAULT_CONSOLE_SERVER_OPTIONS: Readonly<ConsoleServerOptions> = Object.freeze({
  host: '127.0.0.1',
  port: 8161,
  maxRequestBodyBytes: 16 * 1024,
  maxConnections: 64,
  requestTimeout: 10_000,
  maxSessions: 100,
  sessionIdleTimeout: 30 * 60_000,
  sessionMaxLifetime: 8 * 3_600_000,
  allowedHosts: null,
  rateInterval: 1_000,
  logger: silentLogger,
});

/** The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it). */
export const SESSION_COOKIE = 'hornetq-console-session';
/** The header every POST of a logged-in page carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** A URL longer than this is refused (414) before anything else is read of it. */
const MAX_URL_CHARS = 4_096;
/** A client chooses the URL: what of it is logged is cut to this length. */
const LOGGED_URL_CHARS = 200;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The browser's rules for the page and the API: scripts, styles and requests only from the
 * console itself, no inline script or style, no framing (clickjacking), no plug-ins, no form
 * posted elsewhere; the page writes every value with textContent, and this is the second wall.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

/** Who made an API call, and how they proved it. */
interface Caller {
  readonly user: string;
  readonly guard: SessionGuard;
  /** The browser session, when the call came with the session cookie (null: Basic credentials). */
  readonly session: ConsoleSession | null;
  /** The cookie's session id (null: Basic credentials). */
  readonly sessionId: string | null;
}

function validate(options: ConsoleServerOptions): void {
  const ranges: Array<[keyof ConsoleServerOptions, number, number]> = [
    ['port', 0, 65_535],
    ['maxRequestBodyBytes', 256, 16 * 1024 * 1024],
    ['maxConnections', 1, 1_000_000],
    ['requestTimeout', 1, 2_147_483_647],
    ['maxSessions', 1, 1_000_000],
    ['sessionIdleTimeout', 1, 2_147_483_647],
    ['sessionMaxLifetime', 1, 2_147_483_647],
    ['rateInterval', 1, 2_147_483_647],
  ];
  const problems: string[] = [];
  for (const [name, min, max] of ranges) {
    const value = options[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      problems.push(`console ${name} must be an integer in ${min}..${max} (actual value: ${String(value)})`);
  }
  if (options.host.trim() === '') problems.push('console host must name a host or address (it is empty)');
  if (options.allowedHosts !== null && options.allowedHosts.some((name) => name.trim() === ''))
    problems.push('console allowedHosts must not hold an empty name');
  if (problems.length > 0) throw invalidValue(problems.join('; '));
}

/** The host names the console answers to (see ConsoleServerOptions.allowedHosts); null: any. */
function allowedHostsOf(options: ConsoleServerOptions): ReadonlySet<string> | null {
  if (options.allowedHosts !== null) return new Set(options.allowedHosts.map((name) => name.toLowerCase()));
  const host = options.host.toLowerCase();
  if (WILDCARD_HOSTS.has(host)) return null;
  return new Set([...LOOPBACK_NAMES, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host]);
}

/**
 * The management console of a broker: a page (plain HTML, CSS and a JS module from the package's
 * console/ folder) and the JSON API it uses, on a listener of its own, off unless started, on
 * loopback unless told otherwise. It is not on the metrics listener: /metrics is unauthenticated
 * and often opened to a scraper network, while this one changes the broker; each is exposed on
 * its own terms.
 *
 * Users are the broker's (its security manager and `<security-settings>`; see console-rights.ts
 * for view and manage). A browser logs in with a form (POST /api/login) and gets a session cookie
 * and a CSRF token; a script may send Basic credentials with each call instead. Changes are POSTs
 * only, refused from other origins (see cross-site-guard.ts) and, for a browser session, without
 * its CSRF token.
 */
export class ConsoleServer {
  readonly options: Readonly<ConsoleServerOptions>;
  private server: Server | null = null;
  private listening: Promise<void> = Promise.resolve();
  private readonly source: () => Broker | null;
  private readonly sessions: ConsoleSessions;
  private readonly api: ConsoleApi;
  private readonly allowedHosts: ReadonlySet<string> | null;
  private pageFiles: ReadonlyMap<string, StaticFile> = new Map();
  /** Whether the warning that security is disabled was logged (once per server). */
  private warnedOpen = false;
  /** The broker the sessions logged in to: another one (EmbeddedJMS restarted) logs them all out. */
  private sessionsBroker: Broker | null = null;

  constructor(broker: Broker | (() => Broker | null), options: Partial<ConsoleServerOptions> = {}) {
    this.options = { ...DEFAULT_CONSOLE_SERVER_OPTIONS, ...options };
    validate(this.options);
    this.source = typeof broker === 'function' ? broker : () => broker;
    this.sessions = new ConsoleSessions({
      maxSessions: this.options.maxSessions,
      idleTimeoutMs: this.options.sessionIdleTimeout,
      maxLifetimeMs: this.options.sessionMaxLifetime,
    });
    this.api = new ConsoleApi(() => this.source()?.management ?? null, this.options.rateInterval);
    this.allowedHosts = allowedHostsOf(this.options);
  }

  /** The port bound (the one picked for port 0); throws before start(). */
  get port(): number {
    const address = this.server?.address();
    if (typeof address !== 'object' || address === null)
      throw new HornetQException('ILLEGAL_STATE', 'the console server is not listening (call start() first)');
    return address.port;
  }

  /** http://host:port/ of the bound port. */
  get url(): string {
    return httpUrl(this.options.host, this.port, '/');
  }

  async start(): Promise<void> {
    if (this.server !== null)
      throw new HornetQException('ILLEGAL_STATE', 'the console server is already started');
    const server = createServer((request, response) => this.handle(request, response));
    this.server = server;
    try {
      this.pageFiles = await loadPageFiles();
    } catch (error) {
      this.server = null;
      throw error;
    }
    this.listening = listenHttp(server, this.options, 'console server');
    try {
      await this.listening;
    } catch (error) {
      this.server = null;
      throw error;
    }
    this.warnIfOpen();
  }

  /** Stops listening, destroys every open connection and logs every session out. */
  async close(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    this.sessions.clear();
    await closeHttp(server, this.listening);
  }

  /** At start, or at the first login if the broker was not made yet then. */
  private warnIfOpen(): void {
    const broker = this.source();
    if (this.warnedOpen || broker === null || broker.security.enabled) return;
    this.warnedOpen = true;
    this.options.logger.warn(
      { url: this.url },
      `console on ${this.url}: security is disabled, so any user name and password log in, with every right`,
    );
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    // An aborted upload errors the request: heard here, or it would be an uncaught error in the broker.
    request.on('error', () => undefined);
    this.route(request, response).catch((error: unknown) => this.failed(request, response, error));
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '/';
    if (url.length > MAX_URL_CHARS)
      throw new HttpProblem(414, `the URL is longer than ${MAX_URL_CHARS} characters`);
    const rebinding = hostProblem(request.headers, this.allowedHosts);
    if (rebinding !== null) throw new HttpProblem(403, rebinding);
    const parsed = parseUrl(url);
    if (parsed.pathname === '/api' || parsed.pathname.startsWith('/api/'))
      return this.answerApi(request, response, parsed);
    return this.answerPage(request, response, parsed.pathname);
  }

  private answerPage(request: IncomingMessage, response: ServerResponse, pathname: string): void {
    const file = this.pageFiles.get(pathname);
    if (file === undefined)
      throw new HttpProblem(404, `not found: ${pathname.slice(0, 200)} (the console is at /)`);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new HttpProblem(405, `${request.method ?? 'this method'} is not allowed: GET, HEAD`, {
        Allow: 'GET, HEAD',
      });
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': file.type,
      'Content-Length': file.bytes.length,
      'Cache-Control': 'no-cache',
    });
    response.end(request.method === 'HEAD' ? undefined : file.bytes);
  }

  private async answerApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method;
    if (method !== 'GET' && method !== 'POST')
      throw new HttpProblem(
        405,
        `${method ?? 'this method'} is not allowed on the API: GET reads, POST changes`,
        {
          Allow: 'GET, POST',
        },
      );
    const crossSite =
      method === 'GET' ? crossSiteReadProblem(request.headers) : crossSiteWriteProblem(request.headers);
    if (crossSite !== null) throw new HttpProblem(403, crossSite);
    const body = method === 'POST' ? await this.readBody(request) : {};
    const segments = apiSegments(url.pathname);
    if (segments.length === 1 && segments[0] === 'login' && method === 'POST')
      return this.login(request, response, body);
    const caller = await this.authenticate(request, method);
    if (segments.length === 1 && segments[0] === 'logout' && method === 'POST')
      return this.logout(response, caller);
    if (segments.length === 1 && segments[0] === 'session' && method === 'GET')
      return this.json(response, 200, await this.sessionView(caller));
    const answer = await this.api.answer({
      method,
      segments,
      query: url.searchParams,
      body,
      guard: caller.guard,
      user: caller.user,
    });
    this.json(response, 200, answer);
  }

  private readBody(request: IncomingMessage): Promise<JsonObject> {
    return readJsonObject(request, this.options.maxRequestBodyBytes);
  }

  private async login(request: IncomingMessage, response: ServerResponse, body: JsonObject): Promise<void> {
    const user = stringField(body, 'user', { maxChars: MAX_CREDENTIAL_CHARS, required: true });
    const password = stringField(body, 'password', { maxChars: MAX_CREDENTIAL_CHARS }) ?? '';
    const guard = await this.checkCredentials(user, password, request);
    this.forgetSessionsOfAnotherBroker();
    const { id, session } = this.sessions.create(user, guard);
    this.options.logger.info(
      { user: user.slice(0, 200), remote: remoteOf(request) },
      `console: ${user.slice(0, 200)} logged in`,
    );
    response.setHeader('Set-Cookie', `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict`);
    this.json(response, 200, await this.sessionView({ user, guard, session, sessionId: id }));
  }

  private logout(response: ServerResponse, caller: Caller): void {
    if (caller.sessionId !== null) this.sessions.remove(caller.sessionId);
    response.setHeader('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    this.json(response, 200, { loggedOut: true });
  }

  private async sessionView(caller: Caller): Promise<object> {
    const broker = this.brokerOrUnavailable();
    const { managementAddress } = await broker.management.getBrokerInfo();
    const rights = rightsOf(caller.guard, managementAddress);
    return { user: caller.user, csrfToken: caller.session?.csrfToken ?? null, ...rights, managementAddress };
  }

  /**
   * Who is calling: the session of the cookie (a POST must carry its CSRF token too), or Basic
   * credentials checked as a client's login is (the broker's throttle of failed logins included).
   */
  private async authenticate(request: IncomingMessage, method: 'GET' | 'POST'): Promise<Caller> {
    this.forgetSessionsOfAnotherBroker();
    const cookie = cookieOf(request.headers.cookie, SESSION_COOKIE);
    if (cookie !== undefined) {
      const session = this.sessions.find(cookie);
      if (session === null)
        throw unauthorized('the session is over (logged out, expired or the broker restarted): log in again');
      if (method === 'POST' && !csrfTokenMatches(session, single(request.headers[CSRF_HEADER])))
        throw new HttpProblem(
          403,
          `a POST of a logged-in page must carry the session's token in ${CSRF_HEADER}`,
        );
      return { user: session.user, guard: session.guard, session, sessionId: cookie };
    }
    const basic = basicCredentials(request.headers.authorization);
    if (basic !== null) {
      const guard = await this.checkCredentials(basic.user, basic.password, request);
      return { user: basic.user, guard, session: null, sessionId: null };
    }
    throw unauthorized('log in first (POST /api/login), or send Basic credentials');
  }

  /**
   * A session's rights were given by the broker it logged in to (its users, its settings); when
   * the source names another broker now (EmbeddedJMS made a new one at a restart), they are over.
   */
  private forgetSessionsOfAnotherBroker(): void {
    const broker = this.source();
    if (broker === this.sessionsBroker) return;
    this.sessions.clear();
    this.sessionsBroker = broker;
  }

  private async checkCredentials(
    user: string,
    password: string,
    request: IncomingMessage,
  ): Promise<SessionGuard> {
    const broker = this.brokerOrUnavailable();
    this.warnIfOpen();
    try {
      return await broker.security.login(user, password, remoteOf(request));
    } catch (error) {
      if (HornetQException.is(error, 'SECURITY_EXCEPTION'))
        throw unauthorized('unknown user or wrong password');
      throw error;
    }
  }

  private brokerOrUnavailable(): Broker {
    const broker = this.source();
    if (broker === null || !broker.started) throw new HttpProblem(503, 'the broker is not started');
    return broker;
  }

  private failed(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    discardRest(request, response);
    if (HttpProblem.is(error)) {
      if (!response.headersSent) this.json(response, error.status, { error: error.message }, error.headers);
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    this.options.logger.error(
      { err: error },
      `console server: answering ${request.method ?? '?'} ${(request.url ?? '?').slice(0, LOGGED_URL_CHARS)} failed: ${reason}`,
    );
    if (!response.headersSent) this.json(response, 500, { error: `internal error: ${reason}` });
    else response.destroy();
  }

  private json(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): void {
    const bytes = Buffer.from(`${JSON.stringify(body)}\n`, 'utf8');
    response.writeHead(status, {
      ...SECURITY_HEADERS,
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': bytes.length,
      'Cache-Control': 'no-store',
    });
    response.end(bytes);
  }
}

/** What of a refused request's body is read and thrown away so that its answer reaches the client. */
const MAX_DISCARDED_BYTES = 1024 * 1024;

/**
 * A request answered before its body was read (refused, or too large): the connection closes after
 * the answer, and the rest of the body is read and dropped meanwhile, up to MAX_DISCARDED_BYTES
 * (closing a socket with unread data resets it, and the client could lose the answer); a client
 * that sends more is cut off.
 */
function discardRest(request: IncomingMessage, response: ServerResponse): void {
  if (request.complete || request.destroyed) return;
  response.shouldKeepAlive = false;
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BYTES) request.destroy();
  });
  request.resume();
}

function parseUrl(url: string): URL {
  try {
    return new URL(url, 'http://console.invalid');
  } catch {
    throw new HttpProblem(400, `the URL ${url.slice(0, 200)} cannot be parsed`);
  }
}

/** The path after /api/, split at `/` and each part URI-decoded; a bad %-escape is the client's error. */
function apiSegments(pathname: string): string[] {
  const rest = pathname === '/api' ? '' : pathname.slice('/api/'.length);
  try {
    return rest.split('/').map((part) => decodeURIComponent(part));
  } catch {
    throw new HttpProblem(400, `the path ${pathname.slice(0, 200)} has a malformed %-escape`);
  }
}

function remoteOf(request: IncomingMessage): string {
  const { remoteAddress, remotePort } = request.socket;
  const host = remoteAddress?.includes(':') === true ? `[${remoteAddress}]` : (remoteAddress ?? 'unknown');
  return `${host}:${remotePort ?? 0}`;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
