import type { Broker } from '../../src/server';
import type { SecuritySetting } from '../../src/server/security/security-store';
import { ConsoleServer, CSRF_HEADER, SESSION_COOKIE } from '../../src/server/console/console-server';
import { MANAGEMENT_ADDRESS } from '../../src/server/security/permission';
import { httpRequest, type HttpAnswer } from './http-request';
import { securedBrokerConfig, setting, type TestUser } from './secured-broker';
import type { TestBrokers } from './test-broker';
import type { BrokerConfiguration } from '../../src';

/** An answer of the console's JSON API, its body parsed. */
export interface ConsoleAnswer extends HttpAnswer {
  readonly json: Record<string, unknown> & { error?: string };
}

/**
 * A client of the console's API over real HTTP, as the page uses it: log in with the form's
 * call, then send the session cookie with each request and the CSRF token with each POST (and
 * the page's own Origin). Or, without login, Basic credentials as a script would.
 */
export class ConsoleClient {
  private cookie: string | null = null;
  csrfToken: string | null = null;

  constructor(
    /** http://127.0.0.1:port, without a trailing slash. */
    readonly origin: string,
    private readonly basic: { user: string; password: string } | null = null,
  ) {}

  /** Logs in (POST /api/login); on success keeps the cookie and the token. */
  async login(user: string, password: string): Promise<ConsoleAnswer> {
    const answer = await this.request('POST', 'login', { body: { user, password }, withSession: false });
    if (answer.status === 200) {
      const setCookie = [answer.headers['set-cookie'] ?? []]
        .flat()
        .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      if (setCookie === undefined) throw new Error('login answered 200 without the session cookie');
      this.cookie = setCookie.split(';', 1)[0]!;
      this.csrfToken = String(answer.json.csrfToken);
    }
    return answer;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<ConsoleAnswer> {
    return this.request('GET', path, { headers });
  }

  post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<ConsoleAnswer> {
    return this.request('POST', path, { body, headers });
  }

  /** A request as the page makes it, `headers` added or overriding (a test's forged ones). */
  async request(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; withSession?: boolean; raw?: string } = {},
  ): Promise<ConsoleAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/json';
      headers.Origin = this.origin;
      if (this.csrfToken !== null && options.withSession !== false) headers[CSRF_HEADER] = this.csrfToken;
    }
    if (this.cookie !== null && options.withSession !== false) headers.Cookie = this.cookie;
    if (this.basic !== null)
      headers.Authorization = `Basic ${Buffer.from(`${this.basic.user}:${this.basic.password}`).toString('base64')}`;
    Object.assign(headers, options.headers ?? {});
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const answer = await httpRequest(`${this.origin}/api/${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    let json: ConsoleAnswer['json'];
    try {
      json = JSON.parse(answer.body) as ConsoleAnswer['json'];
    } catch {
      throw new Error(
        `${method} /api/${path} answered ${answer.status} with a body that is not JSON: ${answer.body.slice(0, 200)}`,
      );
    }
    return { ...answer, json };
  }
}

/** Roles of the console's tests: read-only, read-only with the messages of one queue, and none. */
export const VIEWER: TestUser = { name: 'vera', password: 'vera-pw', roles: ['viewer'] };
export const READER: TestUser = { name: 'rita', password: 'rita-pw', roles: ['viewer', 'reader'] };
export const APP: TestUser = { name: 'otto', password: 'otto-pw', roles: ['app'] };

/**
 * Security settings where the administrator may do everything; `viewer` may view (`consume` on the
 * management address); `reader` may also browse `browsable` (`consume` there); `app` may send and
 * consume on every jms address but not view the console.
 */
export function consoleSecurity(browsable: string): SecuritySetting[] {
  const app = {
    send: ['app'],
    consume: ['app'],
    createNonDurableQueue: ['app'],
    createDurableQueue: ['app'],
  };
  return [
    setting('#', app),
    setting(MANAGEMENT_ADDRESS, { consume: ['viewer'] }),
    setting(browsable, { ...app, consume: ['app', 'reader'] }),
  ];
}

/** A started broker with security on (the users above and the admin) and a console in front of it. */
export async function startConsoleBroker(
  brokers: TestBrokers,
  browsable: string,
  config: Partial<BrokerConfiguration> = {},
): Promise<{ broker: Broker; console: ConsoleServer; origin: string }> {
  const broker = await brokers.startBroker(
    { ...securedBrokerConfig([VIEWER, READER, APP], consoleSecurity(browsable)), ...config },
    // Selectors, as the JMS layer installs them: the console's filters are JMS selectors.
    { selectors: true },
  );
  const console = brokers.track(new ConsoleServer(broker, { host: '127.0.0.1', port: 0, rateInterval: 200 }));
  await console.start();
  return { broker, console, origin: `http://127.0.0.1:${console.port}` };
}
