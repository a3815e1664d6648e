import type { AddressSettings } from './address-settings';

/**
 * HornetQ's redelivery rules for a message whose delivery failed (rollback, recover, a session or
 * consumer closed with it unacknowledged), from the address settings of its queue.
 */

/** True when the message has had its max-delivery-attempts and must go to the dead-letter address. */
export function deliveriesExhausted(settings: AddressSettings, deliveryCount: number): boolean {
  return settings.maxDeliveryAttempts > 0 && deliveryCount >= settings.maxDeliveryAttempts;
}

/** max-redelivery-delay; when unset, HornetQ's rule: ten times redelivery-delay. */
export function maxRedeliveryDelay(settings: AddressSettings): number {
  return settings.maxRedeliveryDelay ?? settings.redeliveryDelay * 10;
}

/**
 * Ms before the message may be delivered again: redelivery-delay × multiplier^(deliveries − 1),
 * capped at max-redelivery-delay. With delay 1000, multiplier 2 and max 5000: 1000, 2000, 4000,
 * 5000, 5000, …
 */
export function redeliveryDelay(settings: AddressSettings, deliveryCount: number): number {
  if (settings.redeliveryDelay <= 0) return 0;
  const exponent = Math.max(deliveryCount - 1, 0);
  const delay = Math.floor(settings.redeliveryDelay * Math.pow(settings.redeliveryDelayMultiplier, exponent));
  const max = maxRedeliveryDelay(settings);
  return Number.isFinite(delay) && delay <= max ? delay : max;
}
