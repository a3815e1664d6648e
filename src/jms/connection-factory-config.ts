import {
  defaultsOf,
  type ClientOptions,
  type ClientTlsOptions,
  type FactoryClientSettings,
} from '../core/client';
import { CLIENT_SETTINGS } from '../core/client';
import { CONNECTION_FACTORY_SETTINGS, type ConnectionFactorySettings } from './connection-factory-settings';

/** Everything a HornetQConnectionFactory can be told, with HornetQ 2.4's defaults. */
export interface ConnectionFactoryConfig extends ConnectionFactorySettings {
  /** Ours: TLS material in memory for the factory's TLS connectors (see ClientTlsOptions). */
  tls?: ClientTlsOptions | undefined;
}

export const DEFAULT_CONNECTION_FACTORY_CONFIG: Readonly<ConnectionFactoryConfig> = Object.freeze(
  defaultsOf(CONNECTION_FACTORY_SETTINGS),
);

/** The core client's options from a factory's settings (the JMS-only ones stay behind). */
export function clientOptionsOf(config: ConnectionFactoryConfig): Partial<ClientOptions> {
  const core: Partial<Record<keyof FactoryClientSettings, unknown>> = {};
  for (const name of Object.keys(CLIENT_SETTINGS) as Array<keyof FactoryClientSettings>)
    if (name in config) core[name] = config[name];
  return { ...(core as Partial<ClientOptions>), ...(config.tls === undefined ? {} : { tls: config.tls }) };
}
