import {
  DEFAULT_ADDRESS_SETTINGS,
  type AddressSettings,
} from '../../../src/server/postoffice/address-settings';
import {
  deliveriesExhausted,
  maxRedeliveryDelay,
  redeliveryDelay,
} from '../../../src/server/postoffice/redelivery';

function settings(overrides: Partial<AddressSettings>): AddressSettings {
  return { ...DEFAULT_ADDRESS_SETTINGS, ...overrides };
}

describe('redelivery delay', () => {
  it('is 0 by default: a failed delivery comes back at once', () => {
    expect([1, 2, 10].map((n) => redeliveryDelay(DEFAULT_ADDRESS_SETTINGS, n))).toEqual([0, 0, 0]);
  });

  it('delay × multiplier^(deliveries − 1), capped: 1000/2/5000 gives 1000, 2000, 4000, 5000, 5000', () => {
    const s = settings({ redeliveryDelay: 1000, redeliveryDelayMultiplier: 2, maxRedeliveryDelay: 5000 });
    expect([1, 2, 3, 4, 5].map((n) => redeliveryDelay(s, n))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('max-redelivery-delay defaults to ten times redelivery-delay', () => {
    const s = settings({ redeliveryDelay: 100, redeliveryDelayMultiplier: 3 });
    expect(maxRedeliveryDelay(s)).toBe(1000);
    expect([1, 2, 3, 4].map((n) => redeliveryDelay(s, n))).toEqual([100, 300, 900, 1000]);
  });

  it('a multiplier of 1 keeps the delay constant; a huge exponent stays at the cap', () => {
    expect(redeliveryDelay(settings({ redeliveryDelay: 250 }), 7)).toBe(250);
    const s = settings({ redeliveryDelay: 10, redeliveryDelayMultiplier: 10, maxRedeliveryDelay: 60_000 });
    expect(redeliveryDelay(s, 10_000)).toBe(60_000);
  });

  it('a delivery count of 0 (never delivered) takes the base delay', () => {
    expect(redeliveryDelay(settings({ redeliveryDelay: 100, redeliveryDelayMultiplier: 2 }), 0)).toBe(100);
  });
});

describe('max delivery attempts', () => {
  it('is exhausted once the delivery count reaches it', () => {
    const s = settings({ maxDeliveryAttempts: 3 });
    expect([1, 2, 3, 4].map((n) => deliveriesExhausted(s, n))).toEqual([false, false, true, true]);
  });

  it('defaults to 10', () => {
    expect(deliveriesExhausted(DEFAULT_ADDRESS_SETTINGS, 9)).toBe(false);
    expect(deliveriesExhausted(DEFAULT_ADDRESS_SETTINGS, 10)).toBe(true);
  });

  it('-1 (and 0, as in HornetQ) never gives up', () => {
    for (const maxDeliveryAttempts of [-1, 0])
      expect(deliveriesExhausted(settings({ maxDeliveryAttempts }), 1_000_000)).toBe(false);
  });
});
