import { InVmRegistry, type Transport } from '../../core/remoting';
import type { InVmAcceptorConfiguration } from '../broker-configuration';

/** Accepts in-process links for its server-id. */
export class InVmAcceptor {
  constructor(
    readonly config: InVmAcceptorConfiguration,
    private readonly onTransport: (transport: Transport) => void,
  ) {}

  start(): Promise<void> {
    InVmRegistry.register(this.config.serverId, (transport) => this.onTransport(transport));
    return Promise.resolve();
  }

  stop(): Promise<void> {
    InVmRegistry.unregister(this.config.serverId);
    return Promise.resolve();
  }
}
