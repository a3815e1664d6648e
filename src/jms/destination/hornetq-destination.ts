import { brandPrototypes, hasBrand, type ClassOf, type InstanceOf } from '../../lang/brand';
import { InvalidDestinationException } from '../exceptions';

/** Core address prefixes of the four JMS destination kinds (HornetQ's names). */
export const AddressPrefix = {
  QUEUE: 'jms.queue.',
  TOPIC: 'jms.topic.',
  TEMP_QUEUE: 'jms.tempqueue.',
  TEMP_TOPIC: 'jms.temptopic.',
} as const;
export type AddressPrefix = (typeof AddressPrefix)[keyof typeof AddressPrefix];

/**
 * A JMS destination as HornetQ names it: a short JMS name and the core address it stands for
 * (prefix + name). Two handles are equal when their addresses are, so a received JMSDestination
 * equals the sender's queue object.
 */
export abstract class HornetQDestination {
  static readonly brand: string = 'HornetQDestination';
  /** The core address, e.g. 'jms.queue.orders'. */
  readonly address: string;

  protected constructor(
    /** The JMS name, e.g. 'orders'. */
    readonly name: string,
    prefix: AddressPrefix,
  ) {
    if (typeof name !== 'string' || name.length === 0) {
      throw new InvalidDestinationException(
        `a destination name must be a non-empty string, got ${String(name)}`,
      );
    }
    this.address = prefix + name;
    brandPrototypes(new.target);
  }

  /** True for a destination of the class it is called on (or a subclass), from any copy of this package. */
  static is<C extends ClassOf<HornetQDestination>>(this: C, value: unknown): value is InstanceOf<C> {
    return hasBrand(value, this);
  }

  abstract get isQueue(): boolean;
  abstract get isTemporary(): boolean;

  equals(other: unknown): boolean {
    return other instanceof HornetQDestination && other.address === this.address;
  }

  toString(): string {
    return `${this.constructor.name}[${this.name}]`;
  }
}
