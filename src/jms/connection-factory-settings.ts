import { CLIENT_SETTINGS, type CoreOnlySettingName, type FactoryClientSettings } from '../core/client';
import { type SettingTable } from '../lang/settings';
import { JMS_SETTINGS, type JmsSettings } from './jms-settings';

/** Every setting a HornetQConnectionFactory has, by its name (its setter's, without `set`). */
export type ConnectionFactorySettings = FactoryClientSettings & JmsSettings;

/** The core-only settings, left out of the factory's table. */
const CORE_ONLY: Readonly<Record<CoreOnlySettingName, true>> = { ackBatchSize: true, maxFrameBytes: true };

function factoryClientSettings(): SettingTable<FactoryClientSettings> {
  return Object.fromEntries(
    Object.entries(CLIENT_SETTINGS).filter(([name]) => !(name in CORE_ONLY)),
  ) as unknown as SettingTable<FactoryClientSettings>;
}

/**
 * The one table of a connection factory's settings: the session factory's (CLIENT_SETTINGS) and
 * the JMS factory's own (JMS_SETTINGS). The setters, hornetq-jms.xml and the configuration
 * reference read it.
 */
export const CONNECTION_FACTORY_SETTINGS: SettingTable<ConnectionFactorySettings> = Object.freeze({
  ...factoryClientSettings(),
  ...JMS_SETTINGS,
});
