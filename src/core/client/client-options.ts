import { DEFAULT_MAX_FRAME_BYTES } from '../protocol';
import { invalidValue } from '../../lang/argument-errors';
import type { Logger } from '../remoting';
import { clientTlsProblems, type ClientTlsOptions } from './client-tls-options';
import { connectorTlsProblems, type TransportConfiguration } from './connector';
import { DEFAULT_LOAD_BALANCING_POLICY, loadBalancingPolicyProblem } from './load-balancing-policy';

/** Every setting of a session factory (HornetQ's ServerLocator), times in ms and sizes in bytes. */
export interface ClientOptions {
  connectors: TransportConfiguration[];
  callTimeout: number;
  callFailoverTimeout: number;
  connectionTTL: number;
  clientFailureCheckPeriod: number;
  confirmationWindowSize: number;
  consumerWindowSize: number;
  consumerMaxRate: number;
  producerWindowSize: number;
  producerMaxRate: number;
  minLargeMessageSize: number;
  /**
   * Ours: the largest message body this client sends or accepts. Large bodies travel in chunks
   * but are assembled in memory at each end, so this bounds what one message can cost.
   */
  maxLargeMessageBytes: number;
  blockOnAcknowledge: boolean;
  blockOnDurableSend: boolean;
  blockOnNonDurableSend: boolean;
  /**
   * Ours: every durable message sent without a duplicate-detection id (_HQ_DUPL_ID) gets a random
   * one, so that a broker with duplicate detection drops a second execution of the same send:
   * one a replay after a reattach caused (HornetQ and Artemis may execute a replayed send twice),
   * or one repeated after an outcome that was not known.
   */
  duplicateIdOnDurableSend: boolean;
  preAcknowledge: boolean;
  ackBatchSize: number;
  initialConnectAttempts: number;
  /**
   * HornetQ's: with a backup announced for the server connected to, a failed connection is dialled
   * again, then its backup (HornetQ's `ha`). False: a backup is never used.
   */
  ha: boolean;
  /**
   * With `ha`, each initial connect attempt dials the chosen server, then the backup a topology
   * known from an earlier connection names for it (HornetQ's documented meaning).
   */
  failoverOnInitialConnection: boolean;
  /**
   * How a ServerLocator picks the server of each new connection: HornetQ's or Artemis' policy class
   * names (RoundRobin, Random, RandomSticky, FirstElement), or ours, `key-sticky`.
   */
  connectionLoadBalancingPolicyClassName: string;
  reconnectAttempts: number;
  retryInterval: number;
  retryIntervalMultiplier: number;
  maxRetryInterval: number;
  /** Ours: each retry delay varies by up to ± this fraction so that clients do not retry in step. */
  retryJitter: number;
  maxFrameBytes: number;
  logger: Logger | null;
  /** Ours: TLS material in memory for every TLS connector (see ClientTlsOptions). */
  tls?: ClientTlsOptions | undefined;
}

/** HornetQ's defaults (HornetQClient.DEFAULT_*). */
export const DEFAULT_CLIENT_OPTIONS: Readonly<ClientOptions> = Object.freeze({
  connectors: [{ host: 'localhost', port: 5445 }],
  callTimeout: 30_000,
  callFailoverTimeout: -1,
  connectionTTL: 60_000,
  clientFailureCheckPeriod: 30_000,
  confirmationWindowSize: -1,
  consumerWindowSize: 1024 * 1024,
  consumerMaxRate: -1,
  producerWindowSize: 64 * 1024,
  producerMaxRate: -1,
  minLargeMessageSize: 100 * 1024,
  maxLargeMessageBytes: 100 * 1024 * 1024,
  blockOnAcknowledge: false,
  blockOnDurableSend: true,
  blockOnNonDurableSend: false,
  duplicateIdOnDurableSend: false,
  preAcknowledge: false,
  ackBatchSize: 1024 * 1024,
  initialConnectAttempts: 1,
  ha: false,
  failoverOnInitialConnection: false,
  connectionLoadBalancingPolicyClassName: DEFAULT_LOAD_BALANCING_POLICY,
  reconnectAttempts: 0,
  retryInterval: 2000,
  retryIntervalMultiplier: 1,
  maxRetryInterval: 2000,
  retryJitter: 0.1,
  maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
  logger: null,
});

/** Node fires a timer longer than this after 1 ms, so no time option may exceed it. */
const MAX_TIMER_MS = 2_147_483_647;

type Rule = [keyof ClientOptions, (value: number) => boolean, string];

const RULES: Rule[] = [
  // HornetQ's range: the channel has no 'wait forever', so -1 would time every call out at once.
  ['callTimeout', (v) => v >= 0 && v <= MAX_TIMER_MS, `>= 0 and <= ${MAX_TIMER_MS}`],
  ['callFailoverTimeout', (v) => v === -1 || (v >= 0 && v <= MAX_TIMER_MS), `-1 or 0..${MAX_TIMER_MS}`],
  ['connectionTTL', (v) => v === -1 || (v > 0 && v <= MAX_TIMER_MS), `-1 or 1..${MAX_TIMER_MS}`],
  ['clientFailureCheckPeriod', (v) => v === -1 || (v > 0 && v <= MAX_TIMER_MS), `-1 or 1..${MAX_TIMER_MS}`],
  ['confirmationWindowSize', (v) => v >= -1, '-1 or >= 0'],
  ['consumerWindowSize', (v) => v >= -1, '-1 or >= 0'],
  ['consumerMaxRate', (v) => v === -1 || v > 0, '-1 or > 0'],
  ['producerWindowSize', (v) => v === -1 || v > 0, '-1 or > 0'],
  ['producerMaxRate', (v) => v === -1 || v > 0, '-1 or > 0'],
  ['minLargeMessageSize', (v) => v > 0, '> 0'],
  ['maxLargeMessageBytes', (v) => Number.isSafeInteger(v) && v > 0, '> 0'],
  ['ackBatchSize', (v) => v >= 0, '>= 0'],
  ['initialConnectAttempts', (v) => v >= -1, '-1 or >= 0'],
  ['reconnectAttempts', (v) => v >= -1, '-1 or >= 0'],
  ['retryInterval', (v) => v > 0 && v <= MAX_TIMER_MS, `1..${MAX_TIMER_MS}`],
  ['retryIntervalMultiplier', (v) => v > 0, '> 0'],
  ['maxRetryInterval', (v) => v > 0 && v <= MAX_TIMER_MS, `1..${MAX_TIMER_MS}`],
  ['retryJitter', (v) => v >= 0 && v <= 1, 'between 0 and 1'],
  ['maxFrameBytes', (v) => v >= 1024, '>= 1024'],
];

/** What is wrong with one option's value, or null when it is valid (or not a numeric option). */
export function clientOptionProblem(name: string, value: unknown): string | null {
  const rule = RULES.find(([ruleName]) => ruleName === name);
  if (rule === undefined) return null;
  const [, valid, allowed] = rule;
  if (typeof value !== 'number' || Number.isNaN(value) || !valid(value)) {
    return `${name} must be ${allowed} (actual value: ${String(value)})`;
  }
  return null;
}

/** Merges options over the defaults and checks every number, naming the option, value and range. */
export function resolveClientOptions(options: Partial<ClientOptions>): ClientOptions {
  const resolved: ClientOptions = { ...DEFAULT_CLIENT_OPTIONS, ...options };
  const problems: string[] = [];
  for (const [name] of RULES) {
    const problem = clientOptionProblem(name, resolved[name]);
    if (problem !== null) problems.push(problem);
  }
  const policyProblem = loadBalancingPolicyProblem(resolved.connectionLoadBalancingPolicyClassName);
  if (policyProblem !== null) problems.push(policyProblem);
  if (resolved.connectors.length === 0) problems.push('connectors must name at least one broker');
  for (const connector of resolved.connectors) problems.push(...connectorTlsProblems(connector));
  problems.push(...clientTlsProblems(resolved.tls));
  if (problems.length > 0) throw invalidValue(`invalid client options: ${problems.join('; ')}`);
  return resolved;
}
