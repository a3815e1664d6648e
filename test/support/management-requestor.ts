import { CoreMessage, PropertyKind, type ClientConsumer, type ClientSession } from '../../src';
import { BufferReader, BufferWriter } from '../../src/core/protocol';

/** One answer from the management address: the reply's `_HQ_OperationSucceeded` and its JSON body. */
export interface ManagementAnswer {
  succeeded: boolean;
  /** The body's JSON array (HornetQ's storeResult), parsed; null for a null body. */
  results: unknown[] | null;
  /** results[0]: the operation's result, or the failure's text. */
  result: unknown;
}

/**
 * Management requests over a core session, laid out as HornetQ's ManagementHelper writes them:
 * `_HQ_ResourceName`, `_HQ_OperationName` or `_HQ_Attribute`, the parameters as a JSON array in
 * the body, JMSReplyTo naming a temporary queue of the requestor's own. One request at a time.
 */
export class ManagementRequestor {
  private constructor(
    private readonly session: ClientSession,
    private readonly replyAddress: string,
    private readonly replies: ClientConsumer,
    private readonly managementAddress: string,
  ) {}

  static async open(
    session: ClientSession,
    managementAddress = 'jms.queue.hornetq.management',
  ): Promise<ManagementRequestor> {
    const replyAddress = `jms.tempqueue.management-replies-${Math.random().toString(36).slice(2)}`;
    await session.createQueue(replyAddress, replyAddress, { temporary: true, durable: false });
    const replies = await session.createConsumer(replyAddress);
    session.start();
    return new ManagementRequestor(session, replyAddress, replies, managementAddress);
  }

  /** Invokes `operation` on `resource`; resolves with the reply (a refused send rejects). */
  async invoke(resource: string, operation: string, ...parameters: unknown[]): Promise<ManagementAnswer> {
    const request = this.request(resource);
    request.properties.set('_HQ_OperationName', { kind: PropertyKind.STRING, value: operation });
    const writer = new BufferWriter();
    writer.writeNullableSimpleString(JSON.stringify(parameters));
    request.body = writer.toBuffer();
    return this.ask(request);
  }

  /** Reads `attribute` of `resource`. */
  async attribute(resource: string, attribute: string): Promise<ManagementAnswer> {
    const request = this.request(resource);
    request.properties.set('_HQ_Attribute', { kind: PropertyKind.STRING, value: attribute });
    return this.ask(request);
  }

  /** Sends a request as given (a test of malformed ones) and waits for its reply. */
  async ask(request: CoreMessage): Promise<ManagementAnswer> {
    request.properties.set('JMSReplyTo', { kind: PropertyKind.STRING, value: this.replyAddress });
    // Durable: the send blocks until the broker has handled it (and answers a refusal).
    request.durable = true;
    await this.session.createProducer(this.managementAddress).send(request);
    const reply = await this.replies.receive(10_000);
    if (reply === null) throw new Error('no reply from the management address within 10 s');
    await reply.acknowledge();
    const succeeded = reply.message.properties.get('_HQ_OperationSucceeded');
    const json = new BufferReader(reply.message.body).readNullableSimpleString();
    const results = json === null ? null : (JSON.parse(json) as unknown[]);
    return { succeeded: succeeded?.value === true, results, result: results?.[0] ?? null };
  }

  private request(resource: string): CoreMessage {
    const request = new CoreMessage();
    request.properties.set('_HQ_ResourceName', { kind: PropertyKind.STRING, value: resource });
    return request;
  }
}
