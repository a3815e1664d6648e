import type { CoreMessage } from './core-message';

/**
 * The bytes a message arrived as, with the field values they encode. As long as the message still
 * holds those values, encoding it again is one copy of these bytes (with the message id patched
 * in, since the broker assigns ids after receipt): the broker forwards what producers sent without
 * re-encoding headers and properties, as HornetQ forwards its message buffers.
 */
export class WireImage {
  private readonly address: string;
  private readonly type: number;
  private readonly durable: boolean;
  private readonly expiration: number;
  private readonly timestamp: number;
  private readonly priority: number;
  private readonly userId: string | null;
  private readonly propertiesStamp: number;
  private readonly body: Buffer;

  /**
   * The message's whole encoding (from its endOfBodyPosition to the end of its properties) is
   * `source` from `start` to `end`; its 8-byte id is `messageIdOffset` bytes in (after the body
   * and endOfMessagePosition), where the broker patches the id it assigns, as HornetQ does.
   */
  constructor(
    readonly source: Buffer,
    readonly start: number,
    readonly end: number,
    readonly messageIdOffset: number,
    message: CoreMessage,
  ) {
    this.address = message.address;
    this.type = message.type;
    this.durable = message.durable;
    this.expiration = message.expiration;
    this.timestamp = message.timestamp;
    this.priority = message.priority;
    this.userId = message.userId;
    this.propertiesStamp = message.properties.contentStamp;
    this.body = message.body;
  }

  /**
   * True when `message` still encodes to these bytes (its id aside). The body is compared by
   * identity: it is a view of `source`, so writing into it in place changes both alike.
   */
  get length(): number {
    return this.end - this.start;
  }

  describes(message: CoreMessage): boolean {
    return (
      message.body === this.body &&
      message.properties.contentStamp === this.propertiesStamp &&
      message.address === this.address &&
      message.expiration === this.expiration &&
      message.timestamp === this.timestamp &&
      message.priority === this.priority &&
      message.durable === this.durable &&
      message.type === this.type &&
      message.userId === this.userId
    );
  }
}
