import type { TransportConfiguration } from '../../core/client';
import type { ConfigurationProblem } from '../configuration-exception';
import type { Value } from './values';

/** A JNDI name to bind, with the line of its `<entry>`. */
export interface Entry {
  name: string;
  line: number;
}

export type FactorySignature = 'generic' | 'queue' | 'topic';

/** A `<connection-factory>`, its connector-refs resolved. */
export interface ConnectionFactoryDefinition {
  name: string;
  line: number;
  signature: FactorySignature;
  xa: boolean;
  ha: boolean;
  entries: Entry[];
  /** The connector-ref names as written (or the discovery group's name). */
  connectorNames: string[];
  discoveryGroup: string | null;
  connectors: TransportConfiguration[];
  /** Each configured child element's value, by element name (e.g. 'call-timeout' → 5678). */
  settings: ReadonlyMap<string, Value>;
}

export interface QueueDefinition {
  name: string;
  line: number;
  entries: Entry[];
  selector: string | null;
  durable: boolean;
}

export interface TopicDefinition {
  name: string;
  line: number;
  entries: Entry[];
}

/** What hornetq-jms.xml deploys. */
export interface JmsConfiguration {
  file: string;
  factories: ConnectionFactoryDefinition[];
  queues: QueueDefinition[];
  topics: TopicDefinition[];
  warnings: ConfigurationProblem[];
}
