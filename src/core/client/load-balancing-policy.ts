import { invalidValue } from '../../lang/argument-errors';

/**
 * How a new connection picks its server among `count` candidates (HornetQ's
 * ConnectionLoadBalancingPolicy). `key` is what the connection is known by (a JMS client id), or
 * null; only key-sticky looks at it. Candidates come in a stable order: the topology's live
 * servers sorted by node id, or the static connectors as configured.
 */
export interface LoadBalancingPolicy {
  select(count: number, key: string | null): number;
}

/** A number in [0, 1), as Math.random; injectable so that tests choose the draws. */
export type RandomSource = () => number;

function randomIndex(count: number, random: RandomSource): number {
  return Math.min(count - 1, Math.floor(random() * count));
}

/** HornetQ's default: a random first server, then each next one in turn. */
export class RoundRobinPolicy implements LoadBalancingPolicy {
  private position = -1;
  constructor(private readonly random: RandomSource = Math.random) {}
  select(count: number): number {
    this.position = this.position === -1 ? randomIndex(count, this.random) : (this.position + 1) % count;
    return this.position;
  }
}

/** A random server each time. */
export class RandomPolicy implements LoadBalancingPolicy {
  constructor(private readonly random: RandomSource = Math.random) {}
  select(count: number): number {
    return randomIndex(count, this.random);
  }
}

/** A random server the first time, the same one after (a new draw if the list shrank below it). */
export class RandomStickyPolicy implements LoadBalancingPolicy {
  private position = -1;
  constructor(private readonly random: RandomSource = Math.random) {}
  select(count: number): number {
    if (this.position === -1 || this.position >= count) this.position = randomIndex(count, this.random);
    return this.position;
  }
}

/** Always the first server (with a topology: the live server with the lowest node id). */
export class FirstElementPolicy implements LoadBalancingPolicy {
  select(): number {
    return 0;
  }
}

/**
 * Ours: a connection with a key always lands on the same server while the candidates stay the
 * same, so that a durable subscriber's client id keeps its subscription on one node of a cluster
 * (Artemis keeps a subscription queue per node it was created on). The key's FNV-1a hash modulo the
 * count; without a key, round robin.
 */
export class KeyStickyPolicy implements LoadBalancingPolicy {
  private readonly unkeyed: RoundRobinPolicy;
  constructor(random: RandomSource = Math.random) {
    this.unkeyed = new RoundRobinPolicy(random);
  }
  select(count: number, key: string | null): number {
    return key === null ? this.unkeyed.select(count) : stableHash(key) % count;
  }
}

/** 32-bit FNV-1a over the key's UTF-8 bytes: the same on every run, platform and process. */
export function stableHash(key: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

type PolicyMaker = (random: RandomSource) => LoadBalancingPolicy;

const HORNETQ_PACKAGE = 'org.hornetq.api.core.client.loadbalance.';
const ARTEMIS_PACKAGE = 'org.apache.activemq.artemis.api.core.client.loadbalance.';

const JAVA_POLICIES: ReadonlyArray<[string, PolicyMaker]> = [
  ['RoundRobinConnectionLoadBalancingPolicy', (random) => new RoundRobinPolicy(random)],
  ['RandomConnectionLoadBalancingPolicy', (random) => new RandomPolicy(random)],
  ['RandomStickyConnectionLoadBalancingPolicy', (random) => new RandomStickyPolicy(random)],
  ['FirstElementConnectionLoadBalancingPolicy', () => new FirstElementPolicy()],
];

/** Our name for key-sticky, accepted where a Java policy class name is. */
export const KEY_STICKY_POLICY = 'key-sticky';

/**
 * The fixed table from a policy name to a policy of ours: HornetQ's and Artemis' class names (a
 * name from a configuration file never selects code by itself) and our key-sticky.
 */
const POLICIES: ReadonlyMap<string, PolicyMaker> = new Map<string, PolicyMaker>([
  ...JAVA_POLICIES.map(([name, make]): [string, PolicyMaker] => [HORNETQ_PACKAGE + name, make]),
  ...JAVA_POLICIES.map(([name, make]): [string, PolicyMaker] => [ARTEMIS_PACKAGE + name, make]),
  [KEY_STICKY_POLICY, (random) => new KeyStickyPolicy(random)],
]);

/** HornetQ's default (HornetQClient.DEFAULT_CONNECTION_LOAD_BALANCING_POLICY_CLASS_NAME). */
export const DEFAULT_LOAD_BALANCING_POLICY = `${HORNETQ_PACKAGE}RoundRobinConnectionLoadBalancingPolicy`;

/** What is wrong with a policy name (unknown, naming the known ones), or null. */
export function loadBalancingPolicyProblem(name: unknown): string | null {
  if (typeof name === 'string' && POLICIES.has(name.trim())) return null;
  const classes = JAVA_POLICIES.map(([className]) => className).join(', ');
  return (
    `connectionLoadBalancingPolicyClassName ${JSON.stringify(name)} is not a policy this client has; ` +
    `known: ${classes} (in ${HORNETQ_PACKAGE.slice(0, -1)} or ${ARTEMIS_PACKAGE.slice(0, -1)}), and ${KEY_STICKY_POLICY}`
  );
}

/** A new policy (its own state: round robin's position, random-sticky's pick) for the name. */
export function loadBalancingPolicy(name: string, random: RandomSource = Math.random): LoadBalancingPolicy {
  const make = POLICIES.get(name.trim());
  if (make === undefined) throw invalidValue(loadBalancingPolicyProblem(name) ?? name);
  return make(random);
}
