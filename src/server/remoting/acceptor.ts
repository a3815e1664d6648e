import type { Logger, Transport } from '../../core/remoting';
import type { AcceptorConfiguration } from '../broker-configuration';
import { InVmAcceptor } from './in-vm-acceptor';
import { TcpAcceptor } from './tcp-acceptor';

/** What the broker needs of an acceptor: start, stop, and for a TCP one the port it got. */
export interface Acceptor {
  /** `type` tells Broker.getPort and the start log line whether this acceptor listens on TCP. */
  readonly config: AcceptorConfiguration;
  /** For a 'tcp' acceptor, the port actually bound (the one picked for port 0). */
  readonly port?: number;
  /** False once it has stopped listening (or before it listens); absent when it cannot tell. */
  readonly listening?: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Makes the acceptor for one configured acceptor; it hands every link it accepts to `onTransport`
 * and reports what fails outside any caller (socket events, timers) to `logger` (the broker's; silent when absent).
 * A seam for embedders and tests (an instrumented or in-VM-only transport); the broker uses
 * `defaultAcceptorFactory` unless its configuration names another.
 */
export type AcceptorFactory = (
  config: AcceptorConfiguration,
  onTransport: (transport: Transport) => void,
  logger?: Logger,
) => Acceptor;

/** TCP for a 'tcp' acceptor, the in-VM registry for an 'invm' one. */
export const defaultAcceptorFactory: AcceptorFactory = (config, onTransport, logger) =>
  config.type === 'tcp'
    ? new TcpAcceptor(config, onTransport, logger)
    : new InVmAcceptor(config, onTransport);
