import { invalidValue } from '../../lang/argument-errors';
import type { Logger } from '../remoting';
import { clientTlsProblems, type ClientTlsOptions } from './client-tls-options';
import { connectorTlsProblems, type TransportConfiguration } from './connector';
import { loadBalancingPolicyProblem } from './load-balancing-policy';
import { CLIENT_SETTINGS, type ClientSettings } from './settings';
import { defaultsOf, namedSettingProblem, settingsOf } from '../../lang/settings';

/**
 * Every option of a session factory (HornetQ's ServerLocator): the scalar settings CLIENT_SETTINGS
 * describes, and what is not a scalar (the brokers to dial, the logger, TLS material).
 */
export interface ClientOptions extends ClientSettings {
  connectors: TransportConfiguration[];
  logger: Logger | null;
  /** Ours: TLS material in memory for every TLS connector (see ClientTlsOptions). */
  tls?: ClientTlsOptions | undefined;
}

/** HornetQ's defaults (HornetQClient.DEFAULT_*), and ours for what HornetQ does not have. */
export const DEFAULT_CLIENT_OPTIONS: Readonly<ClientOptions> = Object.freeze({
  connectors: [{ host: 'localhost', port: 5445 }],
  ...defaultsOf(CLIENT_SETTINGS),
  logger: null,
});

/** Merges options over the defaults and checks each, naming the option, value and range. */
export function resolveClientOptions(options: Partial<ClientOptions>): ClientOptions {
  const resolved: ClientOptions = { ...DEFAULT_CLIENT_OPTIONS, ...options };
  const problems: string[] = [];
  for (const [name, setting] of settingsOf(CLIENT_SETTINGS)) {
    const problem = namedSettingProblem(name, setting, resolved[name]);
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
