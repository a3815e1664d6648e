import type { ClientConsumer, ClientSession, QueueInfo } from '../../src/core/client';
import { HornetQException } from '../../src/core/protocol';
import { HornetQTopic } from '../../src/jms/destination';
import { JMSException } from '../../src/jms/exceptions';
import { HornetQSession, Session, type SessionConnection } from '../../src/jms/hornetq-session';

/**
 * A broker that answers CREATE_SHARED_QUEUE with QUEUE_EXISTS (none of HornetQ 2.4, Artemis and
 * ours does: they take an alike queue and refuse a mismatch with INVALID_TRANSIENT_QUEUE_USE).
 * HornetQ's client then consumes from whatever queue is there; ours looks first. The core session
 * is a stand-in here because no real broker answers that way.
 */

const TOPIC = new HornetQTopic('t');

function sessionOver(existing: Pick<QueueInfo, 'address' | 'filter'>): {
  session: HornetQSession;
  consumersOn: string[];
} {
  const consumersOn: string[] = [];
  const info: QueueInfo = {
    exists: true,
    durable: true,
    temporary: false,
    consumerCount: 0,
    messageCount: 0,
    ...existing,
  };
  const core = {
    bindingQuery: () => Promise.resolve({ exists: true, queueNames: ['jms.topic.t'] }),
    createSharedQueue: () => Promise.reject(new HornetQException('QUEUE_EXISTS', 'queue exists')),
    queueQuery: () => Promise.resolve(info),
    createConsumer: (queueName: string) => {
      consumersOn.push(queueName);
      return Promise.resolve({} as ClientConsumer);
    },
  } as unknown as ClientSession;
  const connection = {
    stamp: 'connection-stamp',
    clientID: null,
    ownsTemporary: () => true,
    deletedTemporary: () => false,
  } as unknown as SessionConnection;
  return { session: new HornetQSession(connection, core, Session.AUTO_ACKNOWLEDGE), consumersOn };
}

describe('a durable shared queue the broker says exists', () => {
  it('is consumed from when it has the topic and the selector asked for', async () => {
    const { session, consumersOn } = sessionOver({ address: 'jms.topic.t', filter: "a = 'x'" });
    await session.createSharedDurableConsumer(TOPIC, 'sub', "a = 'x'");
    expect(consumersOn).toEqual(['sub']);
  });

  it.each<[string, Pick<QueueInfo, 'address' | 'filter'>, string | null]>([
    ['another topic', { address: 'jms.topic.other', filter: "a = 'x'" }, "a = 'x'"],
    ['another selector', { address: 'jms.topic.t', filter: "a = 'y'" }, "a = 'x'"],
    ['a selector where none was asked', { address: 'jms.topic.t', filter: "a = 'y'" }, null],
  ])('is refused, with INVALID_TRANSIENT_QUEUE_USE, on %s', async (_what, existing, selector) => {
    const { session, consumersOn } = sessionOver(existing);
    const error = await session.createSharedDurableConsumer(TOPIC, 'sub', selector).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JMSException);
    expect(error).toMatchObject({
      errorCode: 'INVALID_TRANSIENT_QUEUE_USE',
      message: expect.stringContaining('Queue sub already exists on another subscription'),
    });
    expect(consumersOn).toEqual([]);
  });

  it('is not ignored for a non-durable one (as HornetQ: only the durable create may find it there)', async () => {
    const { session, consumersOn } = sessionOver({ address: 'jms.topic.t', filter: null });
    const error = await session.createSharedConsumer(TOPIC, 'sub').catch((e: unknown) => e);
    expect(error).toMatchObject({ errorCode: 'QUEUE_EXISTS' });
    expect(consumersOn).toEqual([]);
  });
});
