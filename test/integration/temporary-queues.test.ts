import { FaultProxy } from '../support/fault-proxy';
import { range, receiveCount, seqOf, sequenced, useTestBrokers, waitFor } from '../support/test-broker';

const ADDRESS = 'jms.queue.reply';

describe('temporary queues', () => {
  const env = useTestBrokers();

  test('live while their connection is, and usable from other connections', async () => {
    const broker = await env.startBroker();
    const owner = await env.connect(broker);
    const other = await (await env.connect(broker)).createSession();
    const ownerSession = await owner.createSession();
    await ownerSession.createQueue(ADDRESS, 'tmp.1', { durable: false, temporary: true });
    expect(await other.queueQuery('tmp.1')).toMatchObject({ exists: true, temporary: true, durable: false });

    const producer = other.createProducer(ADDRESS);
    for (let seq = 0; seq < 3; seq++) await producer.send(sequenced(seq, { durable: true }));
    const consumer = await ownerSession.createConsumer('tmp.1');
    ownerSession.start();
    expect((await receiveCount(consumer, 3)).map(seqOf)).toEqual(range(3));

    // Closing the session that created it is not enough: it belongs to the connection.
    await ownerSession.close();
    expect(await other.queueQuery('tmp.1')).toMatchObject({ exists: true });
  });

  test('deleted with messages in them when their connection closes', async () => {
    const broker = await env.startBroker();
    const owner = await env.connect(broker);
    const other = await (await env.connect(broker)).createSession();
    await (await owner.createSession()).createQueue(ADDRESS, 'tmp.2', { durable: false, temporary: true });
    await other.createQueue(ADDRESS, 'kept', { durable: false });
    await other.createProducer(ADDRESS).send(sequenced(0, { durable: true }));
    expect(await other.queueQuery('tmp.2')).toMatchObject({ exists: true, messageCount: 1 });

    await owner.close();
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to see the connection close');
    expect(await other.queueQuery('tmp.2')).toMatchObject({ exists: false });
    expect((await other.bindingQuery(ADDRESS)).queueNames).toEqual(['kept']);
    expect(await other.queueQuery('kept')).toMatchObject({ exists: true, messageCount: 1 });
  });

  test('deleted when their connection fails', async () => {
    const broker = await env.startBroker();
    const proxy = env.track(
      await FaultProxy.start({ targetHost: '127.0.0.1', targetPort: broker.getPort() }),
    );
    const owner = await env.connect(proxy.port);
    await (await owner.createSession()).createQueue(ADDRESS, 'tmp.3', { durable: false, temporary: true });
    const other = await (await env.connect(broker)).createSession();
    expect(await other.queueQuery('tmp.3')).toMatchObject({ exists: true });

    proxy.cut();
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to drop the failed connection');
    expect(await other.queueQuery('tmp.3')).toMatchObject({ exists: false });
  });

  test('consumed from another connection when their connection goes: deleted with that last consumer, not kept for ever', async () => {
    const broker = await env.startBroker();
    const owner = await env.connect(broker);
    await (await owner.createSession()).createQueue(ADDRESS, 'tmp.4', { durable: false, temporary: true });
    const otherSession = await (await env.connect(broker)).createSession();
    const consumer = await otherSession.createConsumer('tmp.4');
    otherSession.start();

    await owner.close();
    await waitFor(() => broker.getConnectionCount() === 1, 'the broker to see the owner close');
    // Still in use: the consumer keeps receiving what is sent to it.
    await otherSession.createProducer(ADDRESS).send(sequenced(0, { durable: false }));
    expect((await receiveCount(consumer, 1)).map(seqOf)).toEqual([0]);
    expect(await otherSession.queueQuery('tmp.4')).toMatchObject({ exists: true, consumerCount: 1 });

    await consumer.close();
    await waitFor(
      () => !broker.listQueues().some((queue) => queue.name === 'tmp.4'),
      'the orphaned temporary queue to go with its last consumer',
    );
    expect(await otherSession.queueQuery('tmp.4')).toMatchObject({ exists: false });
  });
});
