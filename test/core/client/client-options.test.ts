import {
  DEFAULT_CLIENT_OPTIONS,
  resolveClientOptions,
  type ClientOptions,
} from '../../../src/core/client/client-options';
import { DEFAULT_MAX_FRAME_BYTES } from '../../../src/core/protocol/frame-decoder';

function thrownBy(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('client option defaults', () => {
  it("are HornetQ's (HornetQClient.DEFAULT_*)", () => {
    expect(DEFAULT_CLIENT_OPTIONS).toEqual({
      connectors: [{ host: 'localhost', port: 5445 }],
      callTimeout: 30_000,
      callFailoverTimeout: -1,
      connectionTTL: 60_000,
      clientFailureCheckPeriod: 30_000,
      confirmationWindowSize: -1,
      consumerWindowSize: 1024 * 1024,
      consumerMaxRate: -1,
      producerWindowSize: 64 * 1024,
      producerMaxRate: -1,
      minLargeMessageSize: 100 * 1024,
      blockOnAcknowledge: false,
      blockOnDurableSend: true,
      blockOnNonDurableSend: false,
      duplicateIdOnDurableSend: false,
      preAcknowledge: false,
      ackBatchSize: 1024 * 1024,
      initialConnectAttempts: 1,
      ha: false,
      failoverOnInitialConnection: false,
      connectionLoadBalancingPolicyClassName:
        'org.hornetq.api.core.client.loadbalance.RoundRobinConnectionLoadBalancingPolicy',
      reconnectAttempts: 0,
      retryInterval: 2000,
      retryIntervalMultiplier: 1,
      maxRetryInterval: 2000,
      retryJitter: 0.1,
      maxFrameBytes: DEFAULT_MAX_FRAME_BYTES,
      // Ours: large bodies are assembled in memory, so one message is bounded.
      maxLargeMessageBytes: 100 * 1024 * 1024,
      logger: null,
    });
  });

  it('cannot be changed', () => {
    expect(Object.isFrozen(DEFAULT_CLIENT_OPTIONS)).toBe(true);
  });

  it('are what resolving no options gives, as a fresh object', () => {
    const resolved = resolveClientOptions({});
    expect(resolved).toEqual(DEFAULT_CLIENT_OPTIONS);
    expect(resolved).not.toBe(DEFAULT_CLIENT_OPTIONS);
    resolved.callTimeout = 1;
    expect(DEFAULT_CLIENT_OPTIONS.callTimeout).toBe(30_000);
  });

  it('give way to the options passed', () => {
    const resolved = resolveClientOptions({
      confirmationWindowSize: 1024 * 1024,
      reconnectAttempts: -1,
      connectors: [{ 'server-id': 0 }],
    });
    expect(resolved.confirmationWindowSize).toBe(1024 * 1024);
    expect(resolved.reconnectAttempts).toBe(-1);
    expect(resolved.connectors).toEqual([{ 'server-id': 0 }]);
    expect(resolved.callTimeout).toBe(30_000);
  });
});

describe('client option validation', () => {
  const invalid: Array<[keyof ClientOptions, number, string]> = [
    ['callTimeout', -1, 'an integer from 0 to 2147483647'],
    ['callTimeout', 2 ** 31, 'an integer from 0 to 2147483647'],
    ['callTimeout', -5, 'an integer from 0 to 2147483647'],
    ['callFailoverTimeout', -2, '-1 or an integer from 1 to 2147483647'],
    ['callFailoverTimeout', 0, '-1 or an integer from 1 to 2147483647'],
    ['connectionTTL', 0, '-1 or an integer from 1 to 2147483647'],
    ['connectionTTL', Infinity, '-1 or an integer from 1 to 2147483647'],
    ['connectionTTL', -2, '-1 or an integer from 1 to 2147483647'],
    ['clientFailureCheckPeriod', 0, '-1 or an integer from 1 to 2147483647'],
    ['confirmationWindowSize', -2, '-1 or an integer from 1 to 2147483647'],
    ['confirmationWindowSize', 0, '-1 or an integer from 1 to 2147483647'],
    ['consumerWindowSize', -2, '-1 or an integer from 0 to 2147483647'],
    ['consumerMaxRate', 0, '-1 or an integer from 1 to 2147483647'],
    ['producerWindowSize', 0, '-1 or an integer from 1 to 2147483647'],
    ['producerMaxRate', 0, '-1 or an integer from 1 to 2147483647'],
    ['minLargeMessageSize', 0, 'an integer from 1 to 2147483647'],
    ['ackBatchSize', -1, 'an integer from 0 to 2147483647'],
    ['initialConnectAttempts', -2, '-1 or an integer from 0 to 2147483647'],
    ['reconnectAttempts', -2, '-1 or an integer from 0 to 2147483647'],
    ['retryInterval', 0, 'an integer from 1 to 2147483647'],
    ['retryIntervalMultiplier', 0, 'a number greater than 0'],
    ['maxRetryInterval', -1, 'an integer from 1 to 2147483647'],
    ['retryJitter', -0.1, 'a number from 0 to 1'],
    ['retryJitter', 1.5, 'a number from 0 to 1'],
    ['maxFrameBytes', 1023, 'an integer from 1024 to 2147483647'],
    ['retryInterval', Number.NaN, 'an integer from 1 to 2147483647'],
  ];

  it.each(invalid)(
    '%s = %p throws a RangeError naming the option, the value and %s',
    (name, value, range) => {
      const error = thrownBy(() => resolveClientOptions({ [name]: value }));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toContain(`${name} must be ${range} (actual value: ${String(value)})`);
    },
  );

  const valid: Array<[keyof ClientOptions, number]> = [
    ['callTimeout', 0],
    ['callFailoverTimeout', -1],
    ['connectionTTL', -1],
    ['clientFailureCheckPeriod', -1],
    ['confirmationWindowSize', -1],
    ['consumerWindowSize', -1],
    ['consumerWindowSize', 0],
    ['consumerMaxRate', -1],
    ['producerWindowSize', -1],
    ['producerMaxRate', -1],
    ['ackBatchSize', 0],
    ['initialConnectAttempts', -1],
    ['reconnectAttempts', -1],
    ['reconnectAttempts', 0],
    ['retryIntervalMultiplier', 0.5],
    ['retryJitter', 0],
    ['retryJitter', 1],
    ['maxFrameBytes', 1024],
  ];

  it.each(valid)('%s = %p is accepted', (name, value) => {
    expect(resolveClientOptions({ [name]: value })[name]).toBe(value);
  });

  it('reports every invalid option at once', () => {
    const error = thrownBy(() => resolveClientOptions({ retryInterval: 0, producerWindowSize: 0 }));
    expect(error.message).toContain(
      'retryInterval must be an integer from 1 to 2147483647 (actual value: 0)',
    );
    expect(error.message).toContain(
      'producerWindowSize must be -1 or an integer from 1 to 2147483647 (actual value: 0)',
    );
  });

  it('refuses a value that is not a number', () => {
    const error = thrownBy(() => resolveClientOptions({ callTimeout: '5000' as unknown as number }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toContain(
      "callTimeout must be an integer from 0 to 2147483647 (actual value: '5000')",
    );
  });

  it('refuses an empty connector list', () => {
    const error = thrownBy(() => resolveClientOptions({ connectors: [] }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/connectors must name at least one broker/);
  });
});
