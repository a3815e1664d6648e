import {
  HornetQQueue,
  Session,
  type HornetQConnection,
  type HornetQMessageConsumer,
  type HornetQMessageProducer,
  type HornetQSession,
  type Message,
  type TemporaryQueue,
} from '../../../src';

const RECEIVE_POLL_MS = 500;

/**
 * A responder on its own connection: reads requests from a queue and sends each body back to the
 * request's JMSReplyTo, until closed. A receive or reply that a failover cuts off is counted and
 * the loop goes on (the requester then asks again).
 */
export class Responder {
  private stopping = false;
  errors = 0;
  answered = 0;
  private loop: Promise<void> = Promise.resolve();

  private constructor(
    private readonly session: HornetQSession,
    private readonly consumer: HornetQMessageConsumer,
    private readonly producer: HornetQMessageProducer,
  ) {}

  static async start(connection: HornetQConnection, requestQueue: string): Promise<Responder> {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const consumer = await session.createConsumer(new HornetQQueue(requestQueue));
    const producer = await session.createProducer(null);
    await connection.start();
    const responder = new Responder(session, consumer, producer);
    responder.loop = responder.serve();
    return responder;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  private async serve(): Promise<void> {
    while (!this.stopping) {
      try {
        const request = await this.consumer.receive(RECEIVE_POLL_MS);
        if (request === null) continue;
        await this.reply(request);
      } catch {
        this.errors++;
      }
    }
  }

  private async reply(request: Message): Promise<void> {
    const replyTo = request.getJMSReplyTo();
    if (replyTo === null) return;
    const reply = this.session.createTextMessage(request.getStringProperty('body'));
    reply.setStringProperty('body', request.getStringProperty('body'));
    await this.producer.send(replyTo, reply);
    this.answered++;
  }
}

/** A requester with a temporary queue for its replies, made once and kept across failovers. */
export class Requester {
  private constructor(
    private readonly session: HornetQSession,
    readonly replyQueue: TemporaryQueue,
    private readonly producer: HornetQMessageProducer,
    private readonly replies: HornetQMessageConsumer,
  ) {}

  static async start(connection: HornetQConnection, requestQueue: string): Promise<Requester> {
    const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const replyQueue = await session.createTemporaryQueue();
    const producer = await session.createProducer(new HornetQQueue(requestQueue));
    const replies = await session.createConsumer(replyQueue);
    await connection.start();
    return new Requester(session, replyQueue, producer, replies);
  }

  /** Sends `body` with JMSReplyTo the temporary queue; resolves with the reply's body, or null. */
  async roundTrip(body: string, timeoutMs: number): Promise<string | null> {
    const request = this.session.createTextMessage(body);
    request.setStringProperty('body', body);
    request.setJMSReplyTo(this.replyQueue);
    await this.producer.send(request);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const reply = await this.replies.receive(Math.max(1, deadline - Date.now()));
      if (reply === null) return null;
      const answered = reply.getStringProperty('body');
      // A reply to an earlier request the failover cut off may still come: not this one's.
      if (answered === body) return answered;
    }
    return null;
  }
}
