import { existsSync } from 'node:fs';
import path from 'node:path';
import { USERS_CONFIG_NAME } from './config/users-xml-reader';
import { ConfigurationException } from './configuration-exception';

export interface ConfigFiles {
  /** Folder holding hornetq-configuration.xml and hornetq-jms.xml under those names. */
  configDir?: string;
  /** Explicit path of hornetq-jms.xml (wins over configDir). */
  jmsConfig?: string;
  /** Explicit path of hornetq-configuration.xml, where connectors and acceptors live. */
  serverConfig?: string;
  /**
   * Explicit path of hornetq-users.xml (users, passwords, roles); by default it is looked for
   * beside hornetq-configuration.xml (else in configDir, else beside hornetq-jms.xml), as HornetQ's.
   */
  usersConfig?: string;
}

export const JMS_CONFIG_NAME = 'hornetq-jms.xml';
export const SERVER_CONFIG_NAME = 'hornetq-configuration.xml';
export const DEFAULT_SCAN_PERIOD_MS = 5000;

/** The two files to read; without hornetq-configuration.xml connector-refs use the netty default. */
export function resolveConfigFiles(files: ConfigFiles): { jmsConfig: string; serverConfig: string | null } {
  const dir = files.configDir;
  const jmsConfig = files.jmsConfig ?? (dir === undefined ? undefined : path.join(dir, JMS_CONFIG_NAME));
  if (jmsConfig === undefined) {
    throw new ConfigurationException(`no ${JMS_CONFIG_NAME} to load: give configDir or jmsConfig`);
  }
  const inDir = dir === undefined ? null : path.join(dir, SERVER_CONFIG_NAME);
  const serverConfig = files.serverConfig ?? (inDir !== null && existsSync(inDir) ? inDir : null);
  return { jmsConfig, serverConfig };
}

/** Where hornetq-users.xml is for these files (it may not exist). */
export function usersFileOf(files: ConfigFiles, jmsConfig: string, serverConfig: string | null): string {
  if (files.usersConfig !== undefined) return files.usersConfig;
  const dir =
    serverConfig !== null ? path.dirname(serverConfig) : (files.configDir ?? path.dirname(jmsConfig));
  return path.join(dir, USERS_CONFIG_NAME);
}

/**
 * The scan period `watch` asks for, or null when not watching: how often a file is read where it
 * cannot be watched (fs.watch notices a change otherwise, whatever the period).
 */
export function scanPeriodOf(watch: boolean | { scanPeriodMs: number } | undefined): number | null {
  if (watch === undefined || watch === false) return null;
  if (watch === true) return DEFAULT_SCAN_PERIOD_MS;
  const period = watch.scanPeriodMs;
  if (!Number.isInteger(period) || period < 1 || period > 2_147_483_647) {
    throw new ConfigurationException(
      `watch.scanPeriodMs must be an integer in 1..2147483647 ms (actual value: ${period})`,
    );
  }
  return period;
}

/** The package's own config/ folder (the default deployment). */
export function defaultConfigDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('config');
    dir = parent;
  }
  return path.join(dir, 'config');
}
