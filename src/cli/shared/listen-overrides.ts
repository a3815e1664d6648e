import type { ServerConfiguration } from '../../jndi';
import type { TcpAcceptorConfiguration } from '../../server';
import { CliError } from './cli-error';

/**
 * `hornetq server --host/--port` set the placeholders HornetQ's own configuration puts its netty
 * acceptor's address in (`${hornetq.remoting.netty.host:localhost}`), as HornetQ's run script sets
 * them with -D. So they move every acceptor written with those placeholders and no other: with
 * several acceptors, the ones with their own placeholder or a literal address stay where they are.
 */
export const HOST_PLACEHOLDER = 'hornetq.remoting.netty.host';
export const PORT_PLACEHOLDER = 'hornetq.remoting.netty.port';

export interface ListenOverrides {
  host?: string;
  port?: number;
}

/** The placeholder values --host and --port give; they win over the environment's. */
export function listenPlaceholders(overrides: ListenOverrides): Record<string, string> {
  const values: Record<string, string> = {};
  if (overrides.host !== undefined) {
    if (overrides.host.trim() === '') throw new CliError('--host must name a host or address (it is empty)');
    values[HOST_PLACEHOLDER] = overrides.host;
  }
  if (overrides.port !== undefined) values[PORT_PLACEHOLDER] = String(overrides.port);
  return values;
}

/**
 * An option that moved no acceptor would be silently ignored: refuse it, saying where the
 * placeholder goes.
 */
export function checkListenOverrides(
  overrides: ListenOverrides,
  config: ServerConfiguration | null,
  file: string,
): void {
  const tcp = tcpAcceptorsOf(config);
  if (overrides.host !== undefined && !tcp.some((acceptor) => acceptor.host === overrides.host)) {
    throw unused('--host', overrides.host, 'host', HOST_PLACEHOLDER, 'localhost', file, config);
  }
  if (overrides.port !== undefined && !tcp.some((acceptor) => acceptor.port === overrides.port)) {
    throw unused('--port', String(overrides.port), 'port', PORT_PLACEHOLDER, '5445', file, config);
  }
}

export function tcpAcceptorsOf(config: ServerConfiguration | null): TcpAcceptorConfiguration[] {
  return (config?.acceptors ?? [])
    .map((acceptor) => acceptor.config)
    .filter((acceptor): acceptor is TcpAcceptorConfiguration => acceptor.type === 'tcp');
}

function unused(
  option: string,
  value: string,
  param: string,
  placeholder: string,
  fallback: string,
  file: string,
  config: ServerConfiguration | null,
): CliError {
  if (config === null) return new CliError(`${option} ${value} needs a ${file} with a netty acceptor`);
  return new CliError(
    `${option} ${value} would change nothing: no acceptor in ${file} takes its ${param} from \${${placeholder}} (write <param key="${param}" value="\${${placeholder}:${fallback}}"/> in the acceptor to move, or edit its address there)`,
  );
}
