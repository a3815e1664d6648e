import type { Transport } from '../../core/remoting';
import type { AcceptorConfiguration } from '../broker-configuration';
import { InVmAcceptor } from './in-vm-acceptor';
import { TcpAcceptor } from './tcp-acceptor';

/** What the broker needs of an acceptor: start, stop, and for a TCP one the port it got. */
export interface Acceptor {
  /** `type` tells Broker.getPort and the start log line whether this acceptor listens on TCP. */
  readonly config: AcceptorConfiguration;
  /** For a 'tcp' acceptor, the port actually bound (the one picked for port 0). */
  readonly port?: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Makes the acceptor for one configured acceptor; it hands every link it accepts to `onTransport`.
 * A seam for embedders and tests (an instrumented or in-VM-only transport); the broker uses
 * `defaultAcceptorFactory` unless its configuration names another.
 */
export type AcceptorFactory = (
  config: AcceptorConfiguration,
  onTransport: (transport: Transport) => void,
) => Acceptor;

/** TCP for a 'tcp' acceptor, the in-VM registry for an 'invm' one. */
export const defaultAcceptorFactory: AcceptorFactory = (config, onTransport) =>
  config.type === 'tcp' ? new TcpAcceptor(config, onTransport) : new InVmAcceptor(config, onTransport);
