import type { TransportConfiguration } from '../core/client';
import type { Logger } from '../core/remoting';
import { HornetQQueue, HornetQTopic } from '../jms/destination';
import { HornetQConnectionFactory } from '../jms/hornetq-connection-factory';
import type { BindingRegistry } from './binding-registry';
import { applyFactorySettings } from './config/connection-factory-settings';
import type {
  ConnectionFactoryDefinition,
  Entry,
  JmsConfiguration,
  QueueDefinition,
  TopicDefinition,
} from './config/jms-configuration';
import { ConfigurationException } from './configuration-exception';
import { normalizeName } from './names';
import { problemAt } from './problems';

export interface DeploymentHooks {
  /** What a factory connects to for a configured connector (EmbeddedJMS: port 0 → its acceptor's port). */
  resolveConnector?(connector: TransportConfiguration): TransportConfiguration;
  /** A queue is new or changed; EmbeddedJMS creates its core queue if the broker has none. */
  queueDeployed?(queue: QueueDefinition): void;
  /** A topic is new; EmbeddedJMS creates its marker queue if the broker has none. */
  topicDeployed?(topic: TopicDefinition): void;
  /** Where the factories it binds log (InitialContext.load's logger), so that one logger sees it all. */
  factoryLogger?: Logger;
}

/** What one apply did, as 'kind:name' keys (e.g. 'queue:Orders'). */
export interface DeploymentChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

type Definition =
  | { kind: 'connection-factory'; definition: ConnectionFactoryDefinition }
  | { kind: 'queue'; definition: QueueDefinition }
  | { kind: 'topic'; definition: TopicDefinition };

interface Deployed {
  item: Definition;
  fingerprint: string;
  object: unknown;
}

/**
 * The objects one hornetq-jms.xml deploys into a registry. Applying a new version of the file binds
 * what is new, rebinds what changed (any attribute counts, an entry name or a connector-ref too),
 * unbinds what went, and leaves the rest alone: an unchanged factory stays the same object, and a
 * factory that is rebound or removed is not closed, so connections made from it carry on.
 */
export class JmsDeployment {
  private deployed = new Map<string, Deployed>();

  constructor(
    private readonly registry: BindingRegistry,
    private readonly file: string,
    private readonly hooks: DeploymentHooks = {},
  ) {}

  /** All or nothing: when a name cannot be bound, everything is put back and ConfigurationException says why. */
  apply(config: JmsConfiguration): DeploymentChanges {
    const next = new Map<string, Deployed>();
    for (const item of definitionsOf(config)) {
      next.set(keyOf(item), { item, fingerprint: fingerprintOf(item), object: null });
    }
    const changes = diff(this.deployed, next);
    // The broker has the queue before any client can look it up.
    for (const key of [...changes.added, ...changes.changed]) {
      const item = next.get(key)?.item;
      if (item?.kind === 'queue') this.hooks.queueDeployed?.(item.definition);
      if (item?.kind === 'topic') this.hooks.topicDeployed?.(item.definition);
    }
    const unbound: Array<[string, unknown]> = [];
    const bound: string[] = [];
    try {
      for (const key of [...changes.removed, ...changes.changed]) {
        for (const entry of this.deployed.get(key)?.item.definition.entries ?? []) {
          unbound.push([entry.name, this.registry.lookup(entry.name)]);
          this.registry.unbind(entry.name);
        }
      }
      for (const [key, deployed] of next) {
        const previous = this.deployed.get(key);
        if (previous !== undefined && previous.fingerprint === deployed.fingerprint) {
          deployed.object = previous.object;
          continue;
        }
        deployed.object = this.create(deployed.item);
        for (const entry of deployed.item.definition.entries) {
          this.bind(entry, deployed.object, key);
          bound.push(entry.name);
        }
      }
    } catch (error) {
      for (const name of bound) this.registry.unbind(name);
      for (const [name, object] of unbound) this.registry.rebind(name, object);
      throw error;
    }
    this.deployed = next;
    return changes;
  }

  /** Unbinds everything this deployment bound (queues keep their messages on the broker). */
  undeployAll(): void {
    for (const { item } of this.deployed.values()) {
      for (const entry of item.definition.entries)
        if (this.registry.has(entry.name)) this.registry.unbind(entry.name);
    }
    this.deployed = new Map();
  }

  /** The deployed object for 'kind:name', e.g. 'connection-factory:ConnectionFactory'. */
  objectOf(key: string): unknown {
    return this.deployed.get(key)?.object;
  }

  private bind(entry: Entry, object: unknown, key: string): void {
    try {
      this.registry.bind(entry.name, object);
    } catch (error) {
      const site = { name: 'entry', line: entry.line };
      const message = `${entry.name} cannot be bound for ${key}: ${(error as Error).message}`;
      throw new ConfigurationException([problemAt(this.file, site, message)]);
    }
  }

  private create(item: Definition): unknown {
    switch (item.kind) {
      case 'connection-factory': {
        const resolve = this.hooks.resolveConnector ?? ((connector) => connector);
        const factory = new HornetQConnectionFactory(
          item.definition.ha,
          ...item.definition.connectors.map((c) => resolve({ ...c })),
        );
        if (this.hooks.factoryLogger !== undefined) factory.setLogger(this.hooks.factoryLogger);
        return applyFactorySettings(factory, item.definition.settings);
      }
      case 'queue':
        return new HornetQQueue(item.definition.name);
      case 'topic':
        return new HornetQTopic(item.definition.name);
    }
  }
}

function definitionsOf(config: JmsConfiguration): Definition[] {
  return [
    ...config.factories.map((definition): Definition => ({ kind: 'connection-factory', definition })),
    ...config.queues.map((definition): Definition => ({ kind: 'queue', definition })),
    ...config.topics.map((definition): Definition => ({ kind: 'topic', definition })),
  ];
}

const keyOf = (item: Definition): string => `${item.kind}:${item.definition.name}`;

/** Everything that defines the element except where it sits in the file. */
function fingerprintOf(item: Definition): string {
  const entries = item.definition.entries.map((entry) => normalizeName(entry.name));
  switch (item.kind) {
    case 'connection-factory': {
      const { signature, xa, ha, connectorNames, discoveryGroup, connectors, settings } = item.definition;
      return JSON.stringify([
        item.kind,
        entries,
        signature,
        xa,
        ha,
        connectorNames,
        discoveryGroup,
        connectors,
        [...settings],
      ]);
    }
    case 'queue':
      return JSON.stringify([item.kind, entries, item.definition.selector, item.definition.durable]);
    case 'topic':
      return JSON.stringify([item.kind, entries]);
  }
}

function diff(previous: Map<string, Deployed>, next: Map<string, Deployed>): DeploymentChanges {
  const changes: DeploymentChanges = { added: [], changed: [], removed: [] };
  for (const [key, deployed] of next) {
    const old = previous.get(key);
    if (old === undefined) changes.added.push(key);
    else if (old.fingerprint !== deployed.fingerprint) changes.changed.push(key);
  }
  for (const key of previous.keys()) if (!next.has(key)) changes.removed.push(key);
  return changes;
}
