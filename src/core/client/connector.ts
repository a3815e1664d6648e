import { InVmRegistry, TcpTransport, type Transport } from '../remoting';

/**
 * Where a client connects, with the keys of a connector's params in hornetq-configuration.xml:
 * `host` and `port` for TCP, `server-id` for an in-VM connector.
 */
export interface TransportConfiguration {
  host?: string;
  port?: number;
  'server-id'?: number;
  'ssl-enabled'?: boolean;
  [param: string]: string | number | boolean | undefined;
}

export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 5445;

export function isInVm(connector: TransportConfiguration): boolean {
  return connector['server-id'] !== undefined;
}

export function describeConnector(connector: TransportConfiguration): string {
  return isInVm(connector)
    ? `invm://${connector['server-id']}`
    : `tcp://${connector.host ?? DEFAULT_HOST}:${connector.port ?? DEFAULT_PORT}`;
}

/** Opens a transport to the connector's broker; rejects with why it could not. */
export async function connectTransport(
  connector: TransportConfiguration,
  timeoutMs: number,
): Promise<Transport> {
  if (connector['ssl-enabled'] === true) {
    throw new Error(
      `${describeConnector(connector)}: ssl-enabled connectors are not supported by this client`,
    );
  }
  if (isInVm(connector)) return InVmRegistry.connect(Number(connector['server-id']));
  return TcpTransport.connect(
    connector.host ?? DEFAULT_HOST,
    Number(connector.port ?? DEFAULT_PORT),
    timeoutMs,
  );
}
