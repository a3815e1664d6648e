import { HornetQException } from '../../core/protocol';
import type { BrokerManagement } from '../management/broker-management';
import { MANAGEMENT_LIMITS } from '../management/management-limits';
import type { QueueSummary, SubscriptionView } from '../management/management-views';
import type { SessionGuard } from '../security/session-guard';
import { mayBrowse, rightsOf } from './console-rights';
import { HttpProblem } from './http-problem';
import { QueueRates, type QueueRate } from './queue-rates';
import { stringField, type JsonObject } from './request-body';

/** One authenticated call of the JSON API, after the server's checks (origin, CSRF, body size). */
export interface ApiCall {
  readonly method: 'GET' | 'POST';
  /** The path after `/api/`, split at `/` and each part URI-decoded. */
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
  readonly body: JsonObject;
  readonly guard: SessionGuard;
  /** Who the call is logged as (the login name). */
  readonly user: string;
}

/** Bounds on what one listing returns, whatever the broker holds. */
export const CONSOLE_LIST_LIMITS = Object.freeze({
  /** Rows of a listing (queues, connections, consumers, subscriptions) when no limit is given. */
  defaultRows: 200,
  /** The most rows one listing returns. */
  maxRows: 1_000,
  /** Messages a browse shows when no limit is given (at most MANAGEMENT_LIMITS.maxListLimit). */
  defaultMessages: 50,
  /** The longest name, id or substring accepted in a path, query or body. */
  maxNameChars: 1_024,
});

/** A queue row: its summary, what is ready for a consumer, and its rates (null until two samples). */
export interface QueueRow extends QueueSummary {
  readyCount: number;
  addedPerSecond: number | null;
  acknowledgedPerSecond: number | null;
}

/** A listing's rows, how many there are in all, and whether rows were left off (the limit). */
export interface Listing<T> {
  rows: T[];
  total: number;
  truncated: boolean;
}

type Access = 'view' | 'manage';

interface Route {
  readonly method: 'GET' | 'POST';
  /** Path parts after /api/; `:x` takes any one part as parameter x. */
  readonly pattern: readonly string[];
  readonly access: Access;
  readonly run: (api: ConsoleApi, call: ApiCall, params: ReadonlyMap<string, string>) => Promise<unknown>;
}

const route = (method: Route['method'], path: string, access: Access, run: Route['run']): Route => ({
  method,
  pattern: path.split('/'),
  access,
  run,
});

/**
 * The explicit list of what the API does: every operation is named here, with the right it
 * needs; there is no way to call anything else of the broker (no generic "invoke" bridge, the
 * door of Jolokia's remote-code-execution CVEs).
 */
const ROUTES: readonly Route[] = [
  route('GET', 'broker', 'view', (api) => api.management().getBrokerInfo()),
  route('GET', 'queues', 'view', (api, call) => api.listQueues(call.query)),
  route('GET', 'queues/:queue', 'view', (api, _call, p) => api.queueRow(param(p, 'queue'))),
  route('GET', 'queues/:queue/messages', 'view', (api, call, p) => api.browse(call, param(p, 'queue'))),
  route('GET', 'connections', 'view', async (api, call) =>
    listing(await api.management().listConnections(), call.query),
  ),
  route('GET', 'consumers', 'view', async (api, call) =>
    listing(await api.management().listConsumers(optionalName(call.query, 'queue')), call.query),
  ),
  route('GET', 'subscriptions', 'view', (api, call) => api.listSubscriptions(call.query)),
  route('POST', 'queues/:queue/purge', 'manage', async (api, call, p) => {
    const filter = filterOf(call.body);
    const queue = param(p, 'queue');
    const manager = api.actingFor(call);
    return {
      removed: await (filter === undefined ? manager.purge(queue) : manager.removeMessages(queue, filter)),
    };
  }),
  route('POST', 'queues/:queue/move', 'manage', async (api, call, p) => {
    const target = stringField(call.body, 'target', {
      maxChars: CONSOLE_LIST_LIMITS.maxNameChars,
      required: true,
    });
    const moved = await api
      .actingFor(call)
      .moveMessages(param(p, 'queue'), filterOf(call.body) ?? null, target);
    return { moved };
  }),
  route('POST', 'queues/:queue/retry', 'manage', async (api, call, p) => {
    const id = messageIdOf(call.body);
    const manager = api.actingFor(call);
    const queue = param(p, 'queue');
    return {
      retried:
        id === undefined ? await manager.retryMessages(queue) : Number(await manager.retryMessage(queue, id)),
    };
  }),
  route('POST', 'queues/:queue/pause', 'manage', async (api, call, p) => {
    await api.actingFor(call).pause(param(p, 'queue'));
    return { paused: true };
  }),
  route('POST', 'queues/:queue/resume', 'manage', async (api, call, p) => {
    await api.actingFor(call).resume(param(p, 'queue'));
    return { paused: false };
  }),
  route('POST', 'queues/:queue/delete', 'manage', async (api, call, p) => {
    const removeConsumers = call.body.removeConsumers;
    if (removeConsumers !== undefined && typeof removeConsumers !== 'boolean')
      throw new HttpProblem(400, '"removeConsumers" in the request body must be true or false');
    await api.actingFor(call).destroyQueue(param(p, 'queue'), removeConsumers === true);
    return { deleted: true };
  }),
  route('POST', 'queues/:queue/messages/:id/remove', 'manage', async (api, call, p) => ({
    removed: await api.actingFor(call).removeMessage(param(p, 'queue'), idParam(param(p, 'id'))),
  })),
  route('POST', 'connections/:connection/close', 'manage', async (api, call, p) => ({
    closed: await api.actingFor(call).closeConnection(param(p, 'connection')),
  })),
  route('POST', 'subscriptions/drop', 'manage', async (api, call) => {
    const field = (name: string): string =>
      stringField(call.body, name, { maxChars: CONSOLE_LIST_LIMITS.maxNameChars, required: true });
    await api.actingFor(call).dropDurableSubscription(field('topic'), field('clientId'), field('name'));
    return { dropped: true };
  }),
];

/**
 * The console's JSON API over the broker's management service: routes a call, checks the
 * caller's rights before anything happens (a refused call changes nothing), and turns the
 * service's failures into HTTP statuses with their message.
 */
export class ConsoleApi {
  private readonly rates: QueueRates;

  constructor(
    private readonly source: () => BrokerManagement | null,
    rateIntervalMs: number,
  ) {
    this.rates = new QueueRates(rateIntervalMs);
  }

  /** The answer to `call` (its JSON body), or a rejection with an HttpProblem. */
  async answer(call: ApiCall): Promise<unknown> {
    const { found, params } = this.routeOf(call);
    await this.checkAccess(call, found.access);
    try {
      return await found.run(this, call, params);
    } catch (error) {
      throw problemOf(error);
    }
  }

  /** The management service of the broker now serving; 503 while there is none. */
  management(): BrokerManagement {
    const management = this.source();
    if (management === null) throw new HttpProblem(503, 'the broker is not started');
    return management;
  }

  /** The service, with the changes it logs attributed to the console user. */
  actingFor(call: ApiCall): BrokerManagement {
    return this.management().as(`http:${call.user}`);
  }

  async listQueues(query: URLSearchParams): Promise<Listing<QueueRow>> {
    const queues = await this.management().listQueues();
    const rates = this.rates.observe(queues);
    const part = optionalName(query, 'name');
    const chosen = part === undefined ? queues : queues.filter((queue) => queue.name.includes(part));
    chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return listing(
      chosen.map((queue) => rowOf(queue, rates.get(queue.name) ?? null)),
      query,
    );
  }

  async queueRow(name: string): Promise<QueueRow> {
    const queue = await this.management().getQueue(name);
    return rowOf(queue, null);
  }

  async browse(call: ApiCall, name: string): Promise<{ messages: unknown[]; queue: QueueRow }> {
    const management = this.management();
    const [queue, info] = await Promise.all([management.getQueue(name), management.getBrokerInfo()]);
    if (!mayBrowse(call.guard, info.managementAddress, queue.address))
      throw new HttpProblem(
        403,
        `user ${call.user} may not read the messages of ${name}: that needs 'consume' on ${queue.address} or 'manage' on ${info.managementAddress}`,
      );
    const filter = call.query.get('filter');
    if (filter !== null && filter.length > MANAGEMENT_LIMITS.maxFilterLength)
      throw new HttpProblem(400, `filter is longer than ${MANAGEMENT_LIMITS.maxFilterLength} characters`);
    const messages = await management.listMessages(name, {
      filter: filter === null || filter === '' ? null : filter,
      limit: integerParam(
        call.query,
        'limit',
        CONSOLE_LIST_LIMITS.defaultMessages,
        1,
        MANAGEMENT_LIMITS.maxListLimit,
      ),
      offset: integerParam(call.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
      bodyBytes: integerParam(
        call.query,
        'bodyBytes',
        MANAGEMENT_LIMITS.defaultBodyPreviewBytes,
        0,
        MANAGEMENT_LIMITS.maxBodyPreviewBytes,
      ),
    });
    return { queue: rowOf(queue, null), messages };
  }

  async listSubscriptions(query: URLSearchParams): Promise<Listing<SubscriptionView & { topic: string }>> {
    const management = this.management();
    const topic = optionalName(query, 'topic');
    const topics =
      topic === undefined
        ? (await management.getAddressNames()).filter((address) => address.startsWith('jms.topic.')).sort()
        : [topic];
    const rows: Array<SubscriptionView & { topic: string }> = [];
    for (const address of topics) {
      for (const subscription of await management.listSubscriptions(address))
        rows.push({ topic: address, ...subscription });
    }
    return listing(rows, query);
  }

  private routeOf(call: ApiCall): { found: Route; params: Map<string, string> } {
    let pathMatched = false;
    for (const candidate of ROUTES) {
      const params = match(candidate.pattern, call.segments);
      if (params === null) continue;
      if (candidate.method === call.method) return { found: candidate, params };
      pathMatched = true;
    }
    const path = `/api/${call.segments.join('/')}`.slice(0, 200);
    if (pathMatched)
      throw new HttpProblem(405, `${call.method} is not allowed on ${path}`, {
        Allow: call.method === 'GET' ? 'POST' : 'GET',
      });
    throw new HttpProblem(404, `no such API path: ${path}`);
  }

  private async checkAccess(call: ApiCall, access: Access): Promise<void> {
    const { managementAddress } = await this.management().getBrokerInfo();
    const rights = rightsOf(call.guard, managementAddress);
    if (access === 'manage' && !rights.manage)
      throw new HttpProblem(
        403,
        `user ${call.user} may not change the broker: that needs 'manage' on ${managementAddress}`,
      );
    if (!rights.view)
      throw new HttpProblem(
        403,
        `user ${call.user} may not view the broker: that needs 'consume' (read-only) or 'manage' on ${managementAddress}`,
      );
  }
}

function rowOf(queue: QueueSummary, rate: QueueRate | null): QueueRow {
  return {
    ...queue,
    readyCount: Math.max(0, queue.messageCount - queue.deliveringCount - queue.scheduledCount),
    addedPerSecond: rate?.addedPerSecond ?? null,
    acknowledgedPerSecond: rate?.acknowledgedPerSecond ?? null,
  };
}

function listing<T>(rows: T[], query: URLSearchParams): Listing<T> {
  const limit = integerParam(query, 'limit', CONSOLE_LIST_LIMITS.defaultRows, 1, CONSOLE_LIST_LIMITS.maxRows);
  return { rows: rows.slice(0, limit), total: rows.length, truncated: rows.length > limit };
}

function match(pattern: readonly string[], segments: readonly string[]): Map<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params = new Map<string, string>();
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    const segment = segments[i]!;
    if (part.startsWith(':')) {
      if (segment === '') return null;
      params.set(part.slice(1), segment);
    } else if (part !== segment) return null;
  }
  return params;
}

function param(params: ReadonlyMap<string, string>, name: string): string {
  const value = params.get(name) ?? '';
  if (value.length > CONSOLE_LIST_LIMITS.maxNameChars)
    throw new HttpProblem(
      400,
      `the ${name} in the path is longer than ${CONSOLE_LIST_LIMITS.maxNameChars} characters`,
    );
  return value;
}

function optionalName(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (value.length > CONSOLE_LIST_LIMITS.maxNameChars)
    throw new HttpProblem(
      400,
      `query parameter ${name} is longer than ${CONSOLE_LIST_LIMITS.maxNameChars} characters`,
    );
  return value;
}

/** Query parameter `name` as an integer in min..max; `fallback` when absent. */
export function integerParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new HttpProblem(
      400,
      `query parameter ${name} must be an integer from ${min} to ${max} (it is '${text.slice(0, 40)}')`,
    );
  return value;
}

function idParam(text: string): number {
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value))
    throw new HttpProblem(
      400,
      `the message id in the path must be a non-negative integer (it is '${text.slice(0, 40)}')`,
    );
  return value;
}

function filterOf(body: JsonObject): string | undefined {
  const filter = stringField(body, 'filter', { maxChars: MANAGEMENT_LIMITS.maxFilterLength });
  return filter === '' ? undefined : filter;
}

function messageIdOf(body: JsonObject): number | undefined {
  const id = body.messageId;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
    throw new HttpProblem(400, '"messageId" in the request body must be a non-negative integer');
  return id;
}

/** The HTTP form of a failure of the management service. */
function problemOf(error: unknown): unknown {
  if (HttpProblem.is(error)) return error;
  if (HornetQException.is(error)) {
    const status =
      error.code === 'QUEUE_DOES_NOT_EXIST'
        ? 404
        : error.code === 'INVALID_FILTER_EXPRESSION'
          ? 400
          : error.code === 'QUEUE_EXISTS' || error.code === 'ILLEGAL_STATE'
            ? 409
            : error.code === 'SECURITY_EXCEPTION'
              ? 403
              : 500;
    return status === 500 ? error : new HttpProblem(status, error.message);
  }
  if (error instanceof TypeError || error instanceof RangeError) return new HttpProblem(400, error.message);
  return error;
}
