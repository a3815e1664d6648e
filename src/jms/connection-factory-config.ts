import {
  CLIENT_SETTINGS,
  type ClientOptions,
  type ClientTlsOptions,
  type FactoryClientSettings,
} from '../core/client';
import { defaultsOf } from '../lang/settings';
import { CONNECTION_FACTORY_SETTINGS, type ConnectionFactorySettings } from './connection-factory-settings';

/** Everything a HornetQConnectionFactory can be told, with HornetQ 2.4's defaults. */
export interface ConnectionFactoryConfig extends ConnectionFactorySettings {
  /** Ours: TLS material in memory for the factory's TLS connectors (see ClientTlsOptions). */
  tls?: ClientTlsOptions | undefined;
}

export const DEFAULT_CONNECTION_FACTORY_CONFIG: Readonly<ConnectionFactoryConfig> = Object.freeze(
  defaultsOf(CONNECTION_FACTORY_SETTINGS),
);

/** The core client's options from a factory's settings: the session factory's, and TLS (the JMS-only ones stay behind). */
export function clientOptionsOf(config: ConnectionFactoryConfig): Partial<ClientOptions> {
  const names = Object.keys(CLIENT_SETTINGS).filter((name) => name in config) as Array<
    keyof FactoryClientSettings
  >;
  const core = Object.fromEntries(names.map((name) => [name, config[name]])) as Partial<ClientOptions>;
  return config.tls === undefined ? core : { ...core, tls: config.tls };
}
