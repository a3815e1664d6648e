import type { TransportConfiguration } from '../../core/client';
import { parseSelector } from '../../jms/selector';
import { normalizeName } from '../names';
import { ConfigurationException } from '../configuration-exception';
import { Problems, type ProblemSite } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { parseConfigDocument, readConfigFile } from './config-document';
import { FACTORY_SETTINGS } from './connection-factory-settings';
import { checkShape, first } from './element-shape';
import type {
  ConnectionFactoryDefinition,
  Entry,
  FactorySignature,
  JmsConfiguration,
  QueueDefinition,
  TopicDefinition,
} from './jms-configuration';
import type { ParseOptions } from './server-config-parser';
import type { ServerConfiguration } from './server-configuration';
import { readSetting, readValue, type Value } from './values';

export interface JmsParseOptions extends ParseOptions {
  /** The hornetq-configuration.xml whose connectors and discovery groups the factories name. */
  server?: ServerConfiguration | null;
  /**
   * Connectors of hornetq-configuration.xml that are in error (`'all'`: the file could not be read
   * at all): a connector-ref to one is left unresolved without an error of its own, the server
   * file's errors saying what is wrong (`hornetq config check` reports every file at once).
   */
  connectorsInError?: ReadonlySet<string> | 'all';
}

/** The connector a connector-ref stands for when there is no hornetq-configuration.xml. */
export const NETTY_DEFAULT: Readonly<TransportConfiguration> = Object.freeze({
  host: 'localhost',
  port: 5445,
});

/** Loads hornetq-jms.xml; throws ConfigurationException listing every problem in the file. */
export async function loadJmsConfiguration(
  file: string,
  options: JmsParseOptions = {},
): Promise<JmsConfiguration> {
  return parseJmsConfiguration(await readConfigFile(file), file, options);
}

/** Parses hornetq-jms.xml text; `file` names it in errors. */
export function parseJmsConfiguration(
  source: string,
  file: string,
  options: JmsParseOptions = {},
): JmsConfiguration {
  const problems = new Problems(file);
  const root = parseConfigDocument(source, options.env ?? process.env, problems);
  // Unless the document could not be read at all, its elements are checked too: every problem at once.
  if (root === null) throw new ConfigurationException(problems.errors);
  const config = new JmsParser(problems, options.server ?? null, options.connectorsInError).read(root, file);
  problems.throwIfAny();
  return config;
}

const ROOT_CHILDREN = new Map([
  ['jmx-domain', 'one' as const],
  ['connection-factory', 'many' as const],
  ['queue', 'many' as const],
  ['topic', 'many' as const],
]);

const FACTORY_CHILDREN = new Map<string, 'one' | 'many'>([
  ['connectors', 'one'],
  ['discovery-group-ref', 'one'],
  ['entries', 'one'],
  ...[...FACTORY_SETTINGS.keys()].map((name): [string, 'one'] => [name, 'one']),
]);

const QUEUE_ORDER = ['entry', 'selector', 'durable'];

class JmsParser {
  /** Every bound name (canonical) and the element that binds it, to refuse a name bound twice. */
  private readonly boundNames = new Map<string, { kind: string; name: string; line: number }>();

  constructor(
    private readonly problems: Problems,
    private readonly server: ServerConfiguration | null,
    private readonly connectorsInError: ReadonlySet<string> | 'all' = new Set(),
  ) {}

  read(root: XmlElement, file: string): JmsConfiguration {
    const children = checkShape(
      root,
      { optional: [...root.attributes.keys()], children: ROOT_CHILDREN },
      this.problems,
    );
    this.checkRootOrder(root);
    const jmxDomain = first(children, 'jmx-domain');
    if (jmxDomain !== undefined) {
      readValue(jmxDomain, { kind: 'non-empty-string' }, this.problems);
      this.problems.warn(jmxDomain, 'is not implemented: there is no JMX in Node; ignored');
    }
    const factories: ConnectionFactoryDefinition[] = [];
    for (const element of children.get('connection-factory') ?? []) this.addFactory(element, factories);
    return {
      file,
      factories,
      queues: this.unique(children.get('queue') ?? [], 'queue', (e) => this.readQueue(e)),
      topics: this.unique(children.get('topic') ?? [], 'topic', (e) => this.readTopic(e)),
      warnings: this.problems.warnings,
    };
  }

  /** hornetq-jms.xsd: jmx-domain first, then every connection-factory, then queues and topics. */
  private checkRootOrder(root: XmlElement): void {
    let destinationSeen: XmlElement | null = null;
    let anySeen: XmlElement | null = null;
    for (const child of root.children) {
      if (child.name === 'jmx-domain' && anySeen !== null) {
        this.problems.error(
          child,
          `must come first in <configuration> (found after <${anySeen.name}> at line ${anySeen.line})`,
        );
      }
      if (child.name === 'connection-factory' && destinationSeen !== null) {
        this.problems.error(
          child,
          `must come before every <queue> and <topic> (found after <${destinationSeen.name}> at line ${destinationSeen.line})`,
        );
      }
      if (child.name === 'queue' || child.name === 'topic') destinationSeen ??= child;
      anySeen ??= child;
    }
  }

  /** HornetQ binds a second factory of the same name to the first one's object (its settings win). */
  private addFactory(element: XmlElement, factories: ConnectionFactoryDefinition[]): void {
    const factory = this.readFactory(element);
    if (factory === null) return;
    const existing = factories.find((f) => f.name === factory.name);
    if (existing === undefined) {
      factories.push(factory);
      return;
    }
    this.problems.warn(
      element,
      `connection-factory '${factory.name}' is already defined at line ${existing.line}: as in HornetQ, its entries are bound to that factory and these settings are ignored`,
      `duplicate-factory:${factory.name}`,
    );
    existing.entries.push(...factory.entries);
  }

  private readFactory(element: XmlElement): ConnectionFactoryDefinition | null {
    const children = checkShape(
      element,
      { required: ['name'], optional: ['signature'], children: FACTORY_CHILDREN },
      this.problems,
    );
    const name = element.attributes.get('name') ?? '';
    const signature = this.readSignature(element);
    const settings = this.readSettings(children);
    const entriesElement = first(children, 'entries');
    const entries =
      entriesElement === undefined
        ? []
        : this.readEntries(entriesElement, 'entries', { kind: 'connection-factory', name });
    const { connectors, connectorNames, discoveryGroup } = this.resolveConnectors(element, children, name);
    if (name.trim() === '' || signature === null) return null;
    return {
      name,
      line: element.line,
      signature,
      xa: settings.get('xa') === true,
      ha: settings.get('ha') === true,
      entries,
      connectorNames,
      discoveryGroup,
      connectors,
      settings,
    };
  }

  private readSignature(element: XmlElement): FactorySignature | null {
    const signature = (element.attributes.get('signature') ?? 'generic').trim();
    if (signature === '' || signature === 'generic') return 'generic';
    if (signature === 'queue' || signature === 'topic') return signature;
    this.problems.error(
      element,
      `Invalid signature ${signature} parsing Connection Factory (expected generic, queue or topic)`,
    );
    return null;
  }

  private readSettings(children: Map<string, XmlElement[]>): Map<string, Value> {
    const settings = new Map<string, Value>();
    for (const [name, [child]] of children) {
      const setting = FACTORY_SETTINGS.get(name);
      if (setting === undefined || child === undefined) continue;
      const value = readSetting(child, setting.setting, this.problems);
      if (value === undefined) continue;
      settings.set(name, value);
      if (setting.ignored !== undefined && (setting.warnWhen?.(value) ?? true))
        this.problems.warn(child, setting.ignored);
    }
    return settings;
  }

  private resolveConnectors(
    element: XmlElement,
    children: Map<string, XmlElement[]>,
    factoryName: string,
  ): { connectors: TransportConfiguration[]; connectorNames: string[]; discoveryGroup: string | null } {
    const discovery = first(children, 'discovery-group-ref');
    const discoveryGroup =
      discovery === undefined
        ? null
        : this.readDiscoveryRef(discovery, factoryName, children.has('connectors'));
    const connectorsElement = first(children, 'connectors');
    const refs = connectorsElement === undefined ? [] : this.readConnectorRefs(connectorsElement);
    if (connectorsElement === undefined && discovery === undefined) {
      this.problems.error(
        element,
        'has neither <connectors> nor <discovery-group-ref> (No Connector name configured on create ConnectionFactory)',
      );
    }
    const connectors = refs
      .map((ref) => this.resolveConnector(ref))
      .filter((c): c is TransportConfiguration => c !== null);
    if (connectors.length === 0 && discovery !== undefined) connectors.push({ ...NETTY_DEFAULT });
    return { connectors, connectorNames: refs.map((ref) => ref.name), discoveryGroup };
  }

  private readDiscoveryRef(element: XmlElement, factoryName: string, hasConnectors: boolean): string | null {
    checkShape(element, { required: ['discovery-group-name'] }, this.problems);
    const group = element.attributes.get('discovery-group-name');
    if (group === undefined) return null;
    if (this.server !== null && !this.server.discoveryGroups.has(group)) {
      this.problems.error(element, `Discovery Group '${group}' does not exist on main config`);
    }
    this.problems.warn(
      element,
      `discovery is not implemented: connection-factory '${factoryName}' uses ${hasConnectors ? 'its <connectors>' : `the netty default ${NETTY_DEFAULT.host}:${NETTY_DEFAULT.port}`} instead of discovery group '${group}'`,
      `discovery:${factoryName}`,
    );
    return group;
  }

  private readConnectorRefs(element: XmlElement): Array<{ name: string; site: ProblemSite }> {
    const children = checkShape(element, { children: new Map([['connector-ref', 'many']]) }, this.problems);
    const refs = children.get('connector-ref') ?? [];
    if (refs.length === 0) this.problems.error(element, 'needs at least one <connector-ref>');
    const result: Array<{ name: string; site: ProblemSite }> = [];
    for (const ref of refs) {
      checkShape(ref, { required: ['connector-name'] }, this.problems);
      const name = ref.attributes.get('connector-name');
      if (name !== undefined && name.trim() !== '') result.push({ name, site: ref });
    }
    return result;
  }

  private resolveConnector(ref: { name: string; site: ProblemSite }): TransportConfiguration | null {
    if (this.connectorsInError === 'all' || this.connectorsInError.has(ref.name)) return null;
    if (this.server === null) {
      this.problems.warn(
        ref.site,
        `no hornetq-configuration.xml was given: connector-ref '${ref.name}' resolves to the netty default ${NETTY_DEFAULT.host}:${NETTY_DEFAULT.port}`,
        'netty-default',
      );
      return { ...NETTY_DEFAULT };
    }
    const connector = this.server.connectors.get(ref.name);
    if (connector === undefined) {
      this.problems.error(
        ref.site,
        `Connector '${ref.name}' not found on the main configuration file (${this.server.file})`,
      );
      return null;
    }
    return { ...connector.transport };
  }

  private readEntries(
    element: XmlElement,
    container: string,
    owner: { kind: string; name: string },
  ): Entry[] {
    const children = checkShape(element, { children: new Map([['entry', 'many']]) }, this.problems);
    const elements = children.get('entry') ?? [];
    if (elements.length === 0) this.problems.error(element, `needs at least one <entry> in <${container}>`);
    return elements
      .map((entry) => this.readEntry(entry, owner))
      .filter((entry): entry is Entry => entry !== null);
  }

  private readEntry(element: XmlElement, owner: { kind: string; name: string }): Entry | null {
    checkShape(element, { required: ['name'] }, this.problems);
    const name = element.attributes.get('name');
    if (name === undefined || name.trim() === '') return null;
    let canonical: string;
    try {
      canonical = normalizeName(name);
    } catch (error) {
      this.problems.error(element, (error as Error).message);
      return null;
    }
    const bound = this.boundNames.get(canonical);
    if (bound !== undefined) {
      this.problems.error(
        element,
        `${name} already has an object bound (by <${bound.kind} name="${bound.name}"> at line ${bound.line})`,
      );
      return null;
    }
    this.boundNames.set(canonical, { ...owner, line: element.line });
    return { name, line: element.line };
  }

  private readQueue(element: XmlElement): QueueDefinition | null {
    const children = checkShape(
      element,
      {
        required: ['name'],
        children: new Map([
          ['entry', 'many'],
          ['selector', 'one'],
          ['durable', 'one'],
        ]),
      },
      this.problems,
    );
    this.checkOrder(element, QUEUE_ORDER);
    const name = element.attributes.get('name') ?? '';
    const entries = this.readDestinationEntries(element, children, { kind: 'queue', name });
    const selectorElement = first(children, 'selector');
    const selector = selectorElement === undefined ? null : this.readSelector(selectorElement);
    const durableElement = first(children, 'durable');
    const durable =
      durableElement === undefined ? true : readValue(durableElement, { kind: 'boolean' }, this.problems);
    if (name.trim() === '' || selector === undefined || durable === undefined) return null;
    return { name, line: element.line, entries, selector, durable: durable === true };
  }

  private readTopic(element: XmlElement): TopicDefinition | null {
    const children = checkShape(
      element,
      { required: ['name'], children: new Map([['entry', 'many']]) },
      this.problems,
    );
    const name = element.attributes.get('name') ?? '';
    const entries = this.readDestinationEntries(element, children, { kind: 'topic', name });
    return name.trim() === '' ? null : { name, line: element.line, entries };
  }

  private readDestinationEntries(
    element: XmlElement,
    children: Map<string, XmlElement[]>,
    owner: { kind: string; name: string },
  ): Entry[] {
    const elements = children.get('entry') ?? [];
    if (elements.length === 0) this.problems.error(element, 'needs at least one <entry>');
    return elements
      .map((entry) => this.readEntry(entry, owner))
      .filter((entry): entry is Entry => entry !== null);
  }

  /** `<queue>` is an xsd:sequence: entries, then selector, then durable. */
  private checkOrder(element: XmlElement, order: readonly string[]): void {
    let latest = -1;
    let latestElement: XmlElement | null = null;
    for (const child of element.children) {
      const rank = order.indexOf(child.name);
      if (rank === -1) continue;
      if (rank < latest && latestElement !== null) {
        this.problems.error(
          child,
          `must come before <${latestElement.name}> in <${element.name}> (order: ${order.join(', ')})`,
        );
      } else if (rank > latest) {
        latest = rank;
        latestElement = child;
      }
    }
  }

  private readSelector(element: XmlElement): string | null | undefined {
    checkShape(element, { required: ['string'] }, this.problems);
    const expression = element.attributes.get('string');
    if (expression === undefined) return undefined;
    try {
      parseSelector(expression);
      return expression;
    } catch (error) {
      this.problems.error(element, `is not a valid selector: ${(error as Error).message}`);
      return undefined;
    }
  }

  private unique<T extends { name: string; line: number }>(
    elements: readonly XmlElement[],
    kind: string,
    read: (element: XmlElement) => T | null,
  ): T[] {
    const result: T[] = [];
    for (const element of elements) {
      const definition = read(element);
      if (definition === null) continue;
      const previous = result.find((d) => d.name === definition.name);
      if (previous !== undefined)
        this.problems.error(
          element,
          `${kind} '${definition.name}' is already defined at line ${previous.line}`,
        );
      else result.push(definition);
    }
    return result;
  }
}
