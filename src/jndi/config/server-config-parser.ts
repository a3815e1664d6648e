import { selectorFilterFactory } from '../../jms/selector';
import type { BrokerLimits, CoreQueueConfiguration } from '../../server/broker-configuration';
import { DEFAULT_BROKER_CONFIGURATION, DEFAULT_BROKER_LIMITS } from '../../server/broker-configuration';
import { DEFAULT_CONSOLE_SERVER_OPTIONS } from '../../server/console/console-server';
import type { HaConfiguration } from '../../server/ha/ha-configuration';
import type { PersistenceConfiguration } from '../../server/storage/persistence-configuration';
import { ConfigurationException, type ConfigurationProblem } from '../configuration-exception';
import { Problems } from '../problems';
import type { Environment } from '../xml/placeholders';
import type { XmlElement } from '../xml/xml-element';
import { readAddressSettings } from './address-settings-reader';
import { parseConfigDocument, readConfigFile } from './config-document';
import { readClusterConfiguration } from './cluster-connection-reader';
import { checkShape, first } from './element-shape';
import { readSecuritySettings } from './security-settings-reader';
import type {
  AcceptorDefinition,
  ConnectorDefinition,
  ConsoleListenerConfiguration,
  ServerConfiguration,
} from './server-configuration';
import {
  CONSOLE_HOST_ELEMENT,
  CONSOLE_PORT_ELEMENT,
  LIMIT_ELEMENTS,
  NAME_ONLY_REATTACH_ELEMENT,
  SERVER_ELEMENTS,
} from './server-elements';
import { readAcceptor, readConnector } from './transport-params';
import { readValue, type Value } from './values';

export interface ParseOptions {
  /** Where `${name}` placeholders are looked up; process.env by default. */
  env?: Environment;
}

/** Loads hornetq-configuration.xml; throws ConfigurationException listing every problem. */
export async function loadServerConfiguration(
  file: string,
  options: ParseOptions = {},
): Promise<ServerConfiguration> {
  return parseServerConfiguration(await readConfigFile(file), file, options);
}

/** Parses hornetq-configuration.xml text; `file` names it in errors. */
export function parseServerConfiguration(
  source: string,
  file: string,
  options: ParseOptions = {},
): ServerConfiguration {
  const check = checkServerConfiguration(source, file, options);
  if (check.config === null || check.errors.length > 0) throw new ConfigurationException(check.errors);
  return check.config;
}

/** What checking hornetq-configuration.xml found: every problem, and what could be read despite them. */
export interface ServerConfigurationCheck {
  /**
   * The configuration with its elements in error left out, for checking the other files against
   * (never for running a broker); null when the file is not a configuration document at all.
   */
  readonly config: ServerConfiguration | null;
  /** The `<connector>`s the file defines that are in error (their names). */
  readonly connectorsInError: ReadonlySet<string>;
  readonly errors: readonly ConfigurationProblem[];
  readonly warnings: readonly ConfigurationProblem[];
}

/**
 * Reads all of hornetq-configuration.xml without stopping at its errors, so that `hornetq config
 * check` reports them and the other files' problems at once.
 */
export function checkServerConfiguration(
  source: string,
  file: string,
  options: ParseOptions = {},
): ServerConfigurationCheck {
  const problems = new Problems(file);
  const root = parseConfigDocument(source, options.env ?? process.env, problems);
  const config = root === null ? null : readRoot(root, file, problems);
  return {
    config,
    connectorsInError: root === null || config === null ? new Set() : connectorsInError(root, config),
    errors: problems.errors,
    warnings: problems.warnings,
  };
}

/** Connectors defined in `root` that its reading left out (their definition has errors). */
function connectorsInError(root: XmlElement, config: ServerConfiguration): Set<string> {
  const names = new Set<string>();
  for (const section of root.children.filter((child) => child.name === 'connectors')) {
    for (const element of section.children) {
      const name = element.attributes.get('name');
      if (element.name === 'connector' && name !== undefined && !config.connectors.has(name)) names.add(name);
    }
  }
  return names;
}

function readRoot(root: XmlElement, file: string, problems: Problems): ServerConfiguration {
  const children = checkShape(
    root,
    {
      optional: [...root.attributes.keys()],
      children: new Map([...SERVER_ELEMENTS.keys()].map((n) => [n, 'one' as const])),
    },
    problems,
  );
  const values = new Map<string, Value>();
  for (const [name, [element]] of children) {
    const kind = SERVER_ELEMENTS.get(name);
    if (kind === undefined || element === undefined || kind.use === 'section') continue;
    if (kind.use === 'unsupported') problems.warn(element, `is not used here: ${kind.meaning}`);
    if (kind.spec === undefined) continue;
    const value = readValue(element, kind.spec, problems);
    if (value !== undefined) values.set(name, value);
  }
  const persistence = readPersistence(values);
  const ha = readHa(values);
  const securityEnabled = boolean(values, 'security-enabled', true);
  const section = (name: string): XmlElement | undefined => first(children, name);
  const limits = readLimits(values);
  const connectors = readConnectors(section('connectors'), problems);
  return {
    file,
    connectors,
    cluster: readClusterConfiguration(
      {
        section: section('cluster-connections'),
        user: values.get('cluster-user') as string | undefined,
        password: values.get('cluster-password') as string | undefined,
      },
      connectors,
      problems,
    ),
    acceptors: readAcceptors(section('acceptors'), problems),
    discoveryGroups: readDiscoveryGroups(section('discovery-groups'), problems),
    connectionTtlOverride: number(
      values,
      'connection-ttl-override',
      DEFAULT_BROKER_CONFIGURATION.connectionTtlOverride,
    ),
    messageExpiryScanPeriod: number(
      values,
      'message-expiry-scan-period',
      DEFAULT_BROKER_CONFIGURATION.messageExpiryScanPeriod,
    ),
    idCacheSize: number(values, 'id-cache-size', DEFAULT_BROKER_CONFIGURATION.idCacheSize),
    persistIdCache: boolean(values, 'persist-id-cache', DEFAULT_BROKER_CONFIGURATION.persistIdCache),
    managementAddress:
      (values.get('management-address') as string | undefined) ??
      DEFAULT_BROKER_CONFIGURATION.managementAddress,
    console: readConsole(values, first(children, CONSOLE_HOST_ELEMENT), problems),
    limits,
    nameOnlyReattachEnabled: boolean(
      values,
      NAME_ONLY_REATTACH_ELEMENT,
      DEFAULT_BROKER_CONFIGURATION.nameOnlyReattachEnabled,
    ),
    persistenceEnabled: boolean(values, 'persistence-enabled', true),
    persistence,
    ha,
    securityEnabled,
    securitySettings:
      section('security-settings') === undefined
        ? []
        : readSecuritySettings(section('security-settings') as XmlElement, problems),
    addressSettings:
      section('address-settings') === undefined
        ? new Map()
        : readAddressSettings(section('address-settings') as XmlElement, problems),
    queues: readQueues(section('queues'), limits.maxNameLength, problems),
    warnings: problems.warnings,
  };
}

/** The console's listener, from console-port (required for one) and console-host (127.0.0.1 by default). */
function readConsole(
  values: ReadonlyMap<string, Value>,
  hostElement: XmlElement | undefined,
  problems: Problems,
): ConsoleListenerConfiguration | null {
  const port = values.get(CONSOLE_PORT_ELEMENT) as number | undefined;
  const host = values.get(CONSOLE_HOST_ELEMENT) as string | undefined;
  if (port === undefined) {
    if (hostElement !== undefined)
      problems.error(
        hostElement,
        `needs <${CONSOLE_PORT_ELEMENT}> (the console is served only when a port is given)`,
      );
    return null;
  }
  return { host: host ?? DEFAULT_CONSOLE_SERVER_OPTIONS.host, port };
}

/** The persistence elements the file sets, as PersistenceConfiguration settings (directories as written). */
function readPersistence(values: ReadonlyMap<string, Value>): Partial<PersistenceConfiguration> {
  const settings: Record<string, Value> = {};
  for (const [name, value] of values) {
    const kind = SERVER_ELEMENTS.get(name);
    if (kind?.use === 'persistence') settings[kind.field] = value;
  }
  return settings as Partial<PersistenceConfiguration>;
}

/** The live/backup elements the file sets, as HaConfiguration settings. */
function readHa(values: ReadonlyMap<string, Value>): Partial<HaConfiguration> {
  const settings: Record<string, Value> = {};
  for (const [name, value] of values) {
    const kind = SERVER_ELEMENTS.get(name);
    if (kind?.use === 'ha') settings[kind.field] = value;
  }
  return settings as Partial<HaConfiguration>;
}

function readConnectors(
  section: XmlElement | undefined,
  problems: Problems,
): Map<string, ConnectorDefinition> {
  const connectors = new Map<string, ConnectorDefinition>();
  if (section === undefined) return connectors;
  const children = checkShape(section, { children: new Map([['connector', 'many']]) }, problems);
  for (const element of children.get('connector') ?? []) {
    const connector = readConnector(element, problems);
    if (connector === null || connector.name === '') continue;
    const previous = connectors.get(connector.name);
    if (previous !== undefined)
      problems.error(element, `connector '${connector.name}' is already defined at line ${previous.line}`);
    else connectors.set(connector.name, connector);
  }
  return connectors;
}

function readAcceptors(section: XmlElement | undefined, problems: Problems): AcceptorDefinition[] {
  if (section === undefined) return [];
  const acceptors: AcceptorDefinition[] = [];
  const children = checkShape(section, { children: new Map([['acceptor', 'many']]) }, problems);
  const elements = children.get('acceptor') ?? [];
  if (elements.length === 0) problems.error(section, 'needs at least one <acceptor>');
  for (const [index, element] of elements.entries()) {
    const acceptor = readAcceptor(element, `acceptor-${index + 1}`, problems);
    if (acceptor === null) continue;
    const previous = acceptors.find((a) => a.config.name === acceptor.config.name);
    if (previous !== undefined)
      problems.error(
        element,
        `acceptor '${acceptor.config.name}' is already defined at line ${previous.line}`,
      );
    else acceptors.push(acceptor);
  }
  return acceptors;
}

/** Only the names: discovery is not implemented, but a connection factory may name a group. */
function readDiscoveryGroups(section: XmlElement | undefined, problems: Problems): Set<string> {
  const names = new Set<string>();
  if (section === undefined) return names;
  problems.warn(
    section,
    'is not used here: UDP and JGroups discovery are not implemented, so a factory that names a discovery group uses its <connectors> (or the netty default)',
  );
  const children = checkShape(section, { children: new Map([['discovery-group', 'many']]) }, problems);
  for (const element of children.get('discovery-group') ?? []) {
    const name = element.attributes.get('name');
    if (name === undefined || name.trim() === '') problems.error(element, "requires the attribute 'name'");
    else names.add(name);
  }
  return names;
}

const QUEUE_SHAPE = {
  required: ['name'],
  children: new Map([
    ['address', 'one' as const],
    ['filter', 'one' as const],
    ['durable', 'one' as const],
  ]),
};

/** Each limit as the file sets it, else its default. */
function readLimits(values: Map<string, Value>): BrokerLimits {
  const limits: BrokerLimits = { ...DEFAULT_BROKER_LIMITS };
  for (const [name, { field }] of LIMIT_ELEMENTS) limits[field] = number(values, name, limits[field]);
  return limits;
}

function readQueues(
  section: XmlElement | undefined,
  maxNameLength: number,
  problems: Problems,
): CoreQueueConfiguration[] {
  if (section === undefined) return [];
  const queues: CoreQueueConfiguration[] = [];
  const lines = new Map<string, number>();
  const children = checkShape(section, { children: new Map([['queue', 'many']]) }, problems);
  for (const element of children.get('queue') ?? []) {
    const parts = checkShape(element, QUEUE_SHAPE, problems);
    const name = element.attributes.get('name');
    const address = first(parts, 'address');
    if (address === undefined) problems.error(element, 'requires an <address>');
    const addressValue =
      address === undefined ? undefined : readValue(address, { kind: 'non-empty-string' }, problems);
    const filterElement = first(parts, 'filter');
    const filter = filterElement === undefined ? null : readFilter(filterElement, problems);
    const durableElement = first(parts, 'durable');
    const durable =
      durableElement === undefined ? true : readValue(durableElement, { kind: 'boolean' }, problems);
    if (name === undefined || name.trim() === '' || typeof addressValue !== 'string' || filter === undefined)
      continue;
    if (name.length > maxNameLength || addressValue.length > maxNameLength) {
      problems.error(
        element,
        nameTooLong(name.length > maxNameLength ? 'a name' : 'an address', maxNameLength),
      );
      continue;
    }
    const previous = lines.get(name);
    if (previous !== undefined) {
      problems.error(element, `queue '${name}' is already defined at line ${previous}`);
      continue;
    }
    lines.set(name, element.line);
    queues.push({ name, address: addressValue, filter, durable: durable === true });
  }
  return queues;
}

/** A core filter has the selector grammar; a bad one is reported here rather than at broker start. */
function readFilter(element: XmlElement, problems: Problems): string | null | undefined {
  checkShape(element, { required: ['string'] }, problems);
  const expression = element.attributes.get('string');
  if (expression === undefined) return undefined;
  try {
    selectorFilterFactory(expression);
    return expression;
  } catch (error) {
    problems.error(element, `is not a valid filter: ${(error as Error).message}`);
    return undefined;
  }
}

/** `what` with its article: 'a name', 'an address'. */
export function nameTooLong(what: string, maxNameLength: number): string {
  return `has ${what} longer than max-name-length (${maxNameLength} characters)`;
}

function number(values: Map<string, Value>, name: string, fallback: number): number {
  const value = values.get(name);
  return typeof value === 'number' ? value : fallback;
}

function boolean(values: Map<string, Value>, name: string, fallback: boolean): boolean {
  const value = values.get(name);
  return typeof value === 'boolean' ? value : fallback;
}
