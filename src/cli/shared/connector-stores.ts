import path from 'node:path';
import type { TransportConfiguration } from '../../core/client';
import { parseConfigDocument, readConfigFile } from '../../jndi/config/config-document';
import { Problems } from '../../jndi/problems';
import type { ConfigurationProblem } from '../../jndi/configuration-exception';
import type { XmlElement } from '../../jndi/xml/xml-element';

/** The params a TLS connector names for its client, which the registry keeps out of its factories. */
const CLIENT_STORE_KEYS = [
  'key-store-path',
  'key-store-password',
  'trust-store-path',
  'trust-store-password',
];
const PATH_KEYS = new Set(['key-store-path', 'trust-store-path']);

/**
 * The client stores of each TLS `<connector>` of hornetq-configuration.xml, by connector name,
 * paths resolved against the file's folder. The registry leaves them out of the factories it
 * hands out (they may be read by other processes); the command runs as the user who owns these
 * files, on their machine, so it uses them: a PEM trust-store-path works from the CLI.
 * The file was loaded (and its problems reported) before this is called: problems are not repeated.
 */
export async function connectorStoresOf(serverFile: string): Promise<Map<string, TransportConfiguration>> {
  const root = parseConfigDocument(await readConfigFile(serverFile), process.env, new Problems(serverFile));
  const stores = new Map<string, TransportConfiguration>();
  for (const connector of childrenNamed(root, 'connectors').flatMap((c) => childrenNamed(c, 'connector'))) {
    const name = connector.attributes.get('name');
    const params = new Map(
      childrenNamed(connector, 'param').map((param) => [
        param.attributes.get('key') ?? '',
        param.attributes.get('value') ?? '',
      ]),
    );
    if (name === undefined || params.get('ssl-enabled') !== 'true') continue;
    const own: TransportConfiguration = {};
    for (const key of CLIENT_STORE_KEYS) {
      const value = params.get(key);
      if (value === undefined || value === '') continue;
      own[key] = PATH_KEYS.has(key) ? path.resolve(path.dirname(serverFile), value) : value;
    }
    if (Object.keys(own).length > 0) stores.set(name, own);
  }
  return stores;
}

function childrenNamed(element: XmlElement | null, name: string): XmlElement[] {
  return element === null ? [] : element.children.filter((child) => child.name === name);
}

/**
 * The registry's warning that it left a connector's stores out: true for the factories it hands
 * out, not for this command, which adds them back (connectorStoresOf).
 */
export function isStoresLeftOutWarning(warning: ConfigurationProblem): boolean {
  return /(key|trust)-store-(path|password).* not copied into the factories a registry hands out/.test(
    warning.message,
  );
}
