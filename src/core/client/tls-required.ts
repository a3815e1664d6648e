import { HornetQException } from '../protocol';
import { isTlsRecordStart, speaksTls } from '../remoting';
import { DEFAULT_HOST, DEFAULT_PORT, isInVm, isTls, type TransportConfiguration } from './connector';

/**
 * A plain connection that failed before the broker's first answer, explained when the port speaks
 * TLS: TLS_REQUIRED, naming the URL to use, with the first failure as its cause. A TLS port either
 * answers the plain bytes with a TLS alert (its first bytes show it) or, as OpenSSL and so Node
 * do, drops the connection without a word, when a handshake tried there (one, trusting nothing
 * over it) tells. Null when that is not the story: a TLS or in-VM connector, bytes that are no TLS
 * record, or a failure other than the link going.
 */
export async function plainClientOnTlsPort(
  error: unknown,
  connector: TransportConfiguration,
  firstBytes: Buffer,
  timeoutMs: number,
): Promise<HornetQException | null> {
  if (isInVm(connector) || isTls(connector) || !HornetQException.is(error)) return null;
  const host = connector.host ?? DEFAULT_HOST;
  const port = Number(connector.port ?? DEFAULT_PORT);
  const tlsAnswered = isTlsRecordStart(firstBytes);
  const silentlyDropped = firstBytes.length === 0 && HornetQException.is(error, 'NOT_CONNECTED');
  if (!tlsAnswered && !(silentlyDropped && (await speaksTls(host, port, timeoutMs)))) return null;
  return new HornetQException(
    'TLS_REQUIRED',
    `the broker at ${host}:${port} speaks TLS and this connection was plain: connect with tls://${host}:${port} (ssl-enabled=true); ${error.message}`,
    { cause: error },
  );
}
