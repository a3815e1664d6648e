import {
  DEFAULT_LOAD_BALANCING_POLICY,
  FirstElementPolicy,
  KEY_STICKY_POLICY,
  KeyStickyPolicy,
  loadBalancingPolicy,
  loadBalancingPolicyProblem,
  RandomPolicy,
  RandomStickyPolicy,
  RoundRobinPolicy,
  stableHash,
  type LoadBalancingPolicy,
} from '../../../src/core/client/load-balancing-policy';

/** A random source that returns the given draws in turn, and fails when asked for more. */
function draws(...values: number[]): () => number {
  let next = 0;
  return () => {
    const value = values[next++];
    if (value === undefined) throw new Error(`asked for draw ${next}, only ${values.length} given`);
    return value;
  };
}

/** Ten new connections over `count` servers: the index each lands on. */
function tenPicks(policy: LoadBalancingPolicy, count = 2, key: string | null = null): number[] {
  return Array.from({ length: 10 }, () => policy.select(count, key));
}

describe('the load-balancing policies spread ten connections', () => {
  it('round robin: a random start, then each next server in turn', () => {
    expect(tenPicks(new RoundRobinPolicy(draws(0.99)))).toEqual([1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    expect(tenPicks(new RoundRobinPolicy(draws(0.4)), 3)).toEqual([1, 2, 0, 1, 2, 0, 1, 2, 0, 1]);
  });

  it('round robin follows a list that shrank', () => {
    const policy = new RoundRobinPolicy(draws(0.9));
    expect([policy.select(3), policy.select(2), policy.select(2)]).toEqual([2, 1, 0]);
  });

  it('random: a fresh draw every time', () => {
    const picks = tenPicks(new RandomPolicy(draws(0, 0.7, 0.2, 0.5, 0.99, 0.1, 0.6, 0.49, 0.51, 0)));
    expect(picks).toEqual([0, 1, 0, 1, 1, 0, 1, 0, 1, 0]);
  });

  it('random sticky: one draw, then the same server; a new draw when the list shrank below it', () => {
    const policy = new RandomStickyPolicy(draws(0.8, 0.1));
    expect(tenPicks(policy, 3)).toEqual(Array(10).fill(2));
    expect(policy.select(2)).toBe(0);
    expect(policy.select(2)).toBe(0);
  });

  it('first element: always the first', () => {
    expect(tenPicks(new FirstElementPolicy())).toEqual(Array(10).fill(0));
  });

  it('key-sticky: the same key always on the same server; no key: round robin', () => {
    const policy = new KeyStickyPolicy(draws(0));
    expect(new Set(tenPicks(policy, 2, 'orders-subscriber')).size).toBe(1);
    expect(policy.select(2, 'orders-subscriber')).toBe(stableHash('orders-subscriber') % 2);
    expect(tenPicks(policy, 2)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    // Keys spread: of 100 client ids, both of two servers get a fair share.
    const onFirst = Array.from({ length: 100 }, (_, n) => policy.select(2, `client-${n}`)).filter(
      (pick) => pick === 0,
    ).length;
    expect(onFirst).toBeGreaterThan(30);
    expect(onFirst).toBeLessThan(70);
  });

  it('the hash is FNV-1a over UTF-8, stable across runs', () => {
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('a')).toBe(0xe40c292c);
    expect(stableHash('foobar')).toBe(0xbf9cf968);
    expect(stableHash('é')).not.toBe(stableHash('e'));
  });
});

describe('policy names', () => {
  it.each([
    ['org.hornetq.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy', RoundRobinPolicy],
    ['org.hornetq.api.core.client.loadbalance.RandomConnectionLoadBalancingPolicy', RandomPolicy],
    ['org.hornetq.api.core.client.loadbalance.RandomStickyConnectionLoadBalancingPolicy', RandomStickyPolicy],
    ['org.hornetq.api.core.client.loadbalance.FirstElementConnectionLoadBalancingPolicy', FirstElementPolicy],
    [
      'org.apache.activemq.artemis.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy',
      RoundRobinPolicy,
    ],
    [
      'org.apache.activemq.artemis.api.core.client.loadbalance.RandomConnectionLoadBalancingPolicy',
      RandomPolicy,
    ],
    [
      'org.apache.activemq.artemis.api.core.client.loadbalance.RandomStickyConnectionLoadBalancingPolicy',
      RandomStickyPolicy,
    ],
    [
      'org.apache.activemq.artemis.api.core.client.loadbalance.FirstElementConnectionLoadBalancingPolicy',
      FirstElementPolicy,
    ],
    [KEY_STICKY_POLICY, KeyStickyPolicy],
    [' key-sticky ', KeyStickyPolicy],
  ])('%s maps to %p', (name, kind) => {
    expect(loadBalancingPolicy(name)).toBeInstanceOf(kind);
    expect(loadBalancingPolicyProblem(name)).toBeNull();
  });

  it("HornetQ's default is round robin", () => {
    expect(loadBalancingPolicy(DEFAULT_LOAD_BALANCING_POLICY)).toBeInstanceOf(RoundRobinPolicy);
  });

  it('an unknown name is refused, naming it and the known ones; each name makes a policy of its own', () => {
    for (const name of ['FooClass', 'org.hornetq.api.core.client.loadbalance.Nope', '']) {
      expect(() => loadBalancingPolicy(name)).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_ARG_VALUE',
          message: expect.stringContaining(`${JSON.stringify(name)} is not a policy this client has`),
        }),
      );
    }
    const problem = loadBalancingPolicyProblem('FooClass') ?? '';
    for (const known of [
      'RoundRobinConnectionLoadBalancingPolicy',
      'RandomStickyConnectionLoadBalancingPolicy',
      'org.hornetq.api.core.client.loadbalance',
      'org.apache.activemq.artemis.api.core.client.loadbalance',
      'key-sticky',
    ])
      expect(problem).toContain(known);
    expect(loadBalancingPolicyProblem(42)).toContain('42 is not a policy');
    expect(loadBalancingPolicy(KEY_STICKY_POLICY)).not.toBe(loadBalancingPolicy(KEY_STICKY_POLICY));
  });
});
