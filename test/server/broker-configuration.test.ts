import {
  DEFAULT_BROKER_CONFIGURATION,
  validateBrokerConfiguration,
  type BrokerConfiguration,
} from '../../src/server/broker-configuration';
import { AddressSettingsRepository } from '../../src/server/postoffice/address-settings';

function problemsOf(overrides: Partial<BrokerConfiguration>): string {
  try {
    validateBrokerConfiguration({ ...DEFAULT_BROKER_CONFIGURATION, ...overrides });
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(RangeError);
    return (error as Error).message;
  }
}

describe('broker configuration: messaging settings', () => {
  it("has HornetQ's defaults", () => {
    expect(DEFAULT_BROKER_CONFIGURATION).toMatchObject({
      messageExpiryScanPeriod: 30_000,
      idCacheSize: 20_000,
      persistIdCache: true,
    });
    expect(problemsOf({})).toBe('');
  });

  it.each([
    [
      { messageExpiryScanPeriod: 0 },
      /messageExpiryScanPeriod \(message-expiry-scan-period\) must be -1 \(off\) or an integer in 1\.\.2147483647 ms \(actual value: 0\)/,
    ],
    [{ messageExpiryScanPeriod: -2 }, /messageExpiryScanPeriod.*actual value: -2/],
    [{ messageExpiryScanPeriod: 2_147_483_648 }, /messageExpiryScanPeriod.*actual value: 2147483648/],
    [
      { idCacheSize: 0 },
      /idCacheSize \(id-cache-size\) must be an integer in 1\.\.2147483647 \(actual value: 0\)/,
    ],
    [{ idCacheSize: 1.5 }, /idCacheSize.*actual value: 1\.5/],
  ])('refuses %j naming the setting, the value and the range', (overrides, expected) => {
    expect(problemsOf(overrides)).toMatch(expected);
  });

  it('accepts -1 to turn the expiry scan off, and small values for tests', () => {
    expect(problemsOf({ messageExpiryScanPeriod: -1, idCacheSize: 1, persistIdCache: false })).toBe('');
  });

  it('checks every address-settings match and names the match, the setting and the value', () => {
    const message = problemsOf({
      addressSettings: {
        '#': { maxDeliveryAttempts: -5 },
        'jms.queue.orders': { redeliveryDelay: -1, redeliveryDelayMultiplier: 0 },
        'jms.queue.ok': { maxDeliveryAttempts: 3, deadLetterAddress: 'jms.queue.DLQ' },
      },
    });
    expect(message).toMatch(
      /'#': maxDeliveryAttempts must be -1 \(no limit\) or an integer >= 0 \(actual value: -5\)/,
    );
    expect(message).toMatch(
      /'jms\.queue\.orders': redeliveryDelay must be an integer >= 0 \(ms\) \(actual value: -1\)/,
    );
    expect(message).toMatch(/redeliveryDelayMultiplier must be a finite number > 0 \(actual value: 0\)/);
    expect(message).not.toMatch(/jms\.queue\.ok/);
  });
});

describe('address settings validation', () => {
  it.each([
    [{ expiryDelay: -2 }, /expiryDelay must be -1 or an integer >= 0/],
    [{ maxRedeliveryDelay: -1 }, /maxRedeliveryDelay must be null or an integer >= 0/],
    [{ deadLetterAddress: '' }, /deadLetterAddress must be null or a non-empty address \(actual value: ""\)/],
    [{ expiryAddress: '' }, /expiryAddress must be null or a non-empty address/],
    [
      { addressFullPolicy: 'SPILL' as never },
      /addressFullPolicy must be PAGE, DROP, BLOCK, FAIL \(actual value: "SPILL"\)/,
    ],
    [{ lastValueQueue: 'yes' as never }, /lastValueQueue must be true or false/],
  ])('refuses %j', (settings, expected) => {
    expect(() => new AddressSettingsRepository().add('a.#', settings)).toThrow(expected);
  });

  it('a setting given as undefined inherits from less specific matches instead of erasing them', () => {
    const repository = new AddressSettingsRepository();
    repository.add('#', { deadLetterAddress: 'DLQ', maxDeliveryAttempts: 10 });
    repository.add('jms.queue.orders', { maxDeliveryAttempts: 3, deadLetterAddress: undefined } as never);
    expect(repository.getMatch('jms.queue.orders')).toMatchObject({
      deadLetterAddress: 'DLQ',
      maxDeliveryAttempts: 3,
    });
  });
});

describe('broker configuration: resource limits', () => {
  it('has defaults that bound each resource yet leave room for any honest client', () => {
    expect(DEFAULT_BROKER_CONFIGURATION).toMatchObject({
      connectionOutputHighWaterMark: 4 * 1024 * 1024,
      connectionOutputStallTimeout: 30_000,
      maxClientConnectionTtl: 300_000,
      sessionlessConnectionTimeout: 10_000,
      maxSessionsPerConnection: 2_000,
      maxConsumersPerConnection: 10_000,
      maxProducersPerConnection: 10_000,
      maxLargeMessageBytesPerConnection: 200 * 1024 * 1024,
      maxQueues: 100_000,
      maxNameLength: 4_096,
      maxDuplicateIdLength: 512,
      maxUnfinishedFrameBytes: 64 * 1024 * 1024,
    });
  });

  it.each([
    [
      { connectionOutputHighWaterMark: 1024 },
      /connectionOutputHighWaterMark \(connection-output-high-water-mark\) must be an integer from 65536 to \d+ \(actual value: 1024\)/,
    ],
    [
      { connectionOutputStallTimeout: 0 },
      /connectionOutputStallTimeout \(connection-output-stall-timeout\) must be an integer from 1 to 2147483647 \(actual value: 0\)/,
    ],
    [
      { maxClientConnectionTtl: -1 },
      /maxClientConnectionTtl \(max-client-connection-ttl\).*actual value: -1/,
    ],
    [
      { sessionlessConnectionTimeout: 2_147_483_648 },
      /sessionlessConnectionTimeout \(sessionless-connection-timeout\).*actual value: 2147483648/,
    ],
    [
      { maxSessionsPerConnection: 0 },
      /maxSessionsPerConnection \(max-sessions-per-connection\).*actual value: 0/,
    ],
    [{ maxConsumersPerConnection: 1.5 }, /maxConsumersPerConnection.*actual value: 1\.5/],
    [
      { maxLargeMessageBytesPerConnection: 0 },
      /maxLargeMessageBytesPerConnection \(max-large-message-bytes-per-connection\) must be an integer from 1 to \d+ \(actual value: 0\)/,
    ],
    [
      { maxProducersPerConnection: 0 },
      /maxProducersPerConnection \(max-producers-per-connection\) must be an integer from 1 to 2147483647 \(actual value: 0\)/,
    ],
    [
      { maxQueues: 0 },
      /maxQueues \(max-queues\) must be an integer from 1 to 2147483647 \(actual value: 0\)/,
    ],
    [
      { maxNameLength: 2 * 1024 * 1024 },
      /maxNameLength \(max-name-length\) must be an integer from 1 to 1048576 \(actual value: 2097152\)/,
    ],
    [
      { maxDuplicateIdLength: 0 },
      /maxDuplicateIdLength \(max-duplicate-id-length\) must be an integer from 1 to 1048576 \(actual value: 0\)/,
    ],
    [
      { maxUnfinishedFrameBytes: 1024 },
      /maxUnfinishedFrameBytes \(max-unfinished-frame-bytes\) must be an integer of at least maxFrameBytes \(10485760\) bytes \(actual value: 1024\)/,
    ],
    [
      { acceptors: [{ name: 'a', type: 'tcp' as const, host: 'localhost', port: 0, connectionsAllowed: 0 }] },
      /acceptor 'a': connections-allowed must be -1 \(no limit\) or an integer in 1\.\.2147483647 \(actual value: 0\)/,
    ],
  ])('refuses %j naming the setting, the value and the range', (overrides, expected) => {
    expect(problemsOf(overrides)).toMatch(expected);
  });
});
