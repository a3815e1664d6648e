import type { Broker } from '../../../src';
import { CoreMessage, PacketType } from '../../../src/core/protocol';
import { silentLogger } from '../../../src/core/remoting';
import { brokerConfigurationOf } from '../../../src/jndi/config/broker-configuration-from-xml';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { useTestBrokers } from '../../support/test-broker';

/**
 * HornetQ's Java client asks for an address' bindings (SESS_BINDINGQUERY) before it produces to
 * or subscribes to a JMS topic, and refuses a topic without any. A topic configured in
 * hornetq-jms.xml is deployed with HornetQ's marker queue so that the query finds it, before any
 * subscriber; an unknown topic has none, as HornetQ's executeBindingQuery answers.
 */

const env = useTestBrokers();

const JMS_XML = `<configuration xmlns="urn:hornetq">
  <queue name="orders"><entry name="/queue/orders"/></queue>
  <topic name="news"><entry name="/topic/news"/></topic>
</configuration>`;

function brokerFromJmsXml(): Promise<Broker> {
  const jms = parseJmsConfiguration(JMS_XML, 'hornetq-jms.xml');
  const configuration = brokerConfigurationOf(null, jms, { storage: null, dataDirectory: '.' }, silentLogger);
  return env.startBroker(
    {
      ...configuration,
      securityEnabled: false,
      acceptors: [{ name: 'tcp', type: 'tcp', host: '127.0.0.1', port: 0 }],
      persistenceEnabled: false,
    },
    { selectors: true },
  );
}

async function plainSession(broker: Broker): Promise<RawClient> {
  const client = env.track(await RawClient.connect(broker.getPort()));
  expect((await client.createSession(RAW_SESSION_CHANNEL)).type).toBe(PacketType.CREATESESSION_RESP);
  return client;
}

function bindingQuery(client: RawClient, address: string): Promise<unknown> {
  return client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_BINDINGQUERY, address });
}

test('a configured topic’s binding query finds its marker queue before any subscriber; an unknown topic finds none', async () => {
  const client = await plainSession(await brokerFromJmsXml());
  expect(await bindingQuery(client, 'jms.topic.news')).toEqual({
    type: PacketType.SESS_BINDINGQUERY_RESP,
    exists: true,
    queueNames: ['jms.topic.news'],
  });
  expect(await bindingQuery(client, 'jms.topic.unknown')).toEqual({
    type: PacketType.SESS_BINDINGQUERY_RESP,
    exists: false,
    queueNames: [],
  });
  expect(await bindingQuery(client, 'jms.queue.orders')).toEqual({
    type: PacketType.SESS_BINDINGQUERY_RESP,
    exists: true,
    queueNames: ['jms.queue.orders'],
  });
});

test('a subscription joins the marker in the answer; the marker takes none of what is published', async () => {
  const client = await plainSession(await brokerFromJmsXml());
  expect(
    await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.CREATE_QUEUE,
      address: 'jms.topic.news',
      queueName: 'subscription',
      filter: null,
      durable: false,
      temporary: true,
      requiresResponse: true,
    }),
  ).toEqual({ type: PacketType.NULL_RESPONSE });
  const answer = (await bindingQuery(client, 'jms.topic.news')) as { exists: boolean; queueNames: string[] };
  expect(answer.exists).toBe(true);
  expect([...answer.queueNames].sort()).toEqual(['jms.topic.news', 'subscription']);

  const published = new CoreMessage();
  published.address = 'jms.topic.news';
  published.body = Buffer.from('headline');
  expect(
    await client.request(RAW_SESSION_CHANNEL, {
      type: PacketType.SESS_SEND,
      message: published,
      requiresResponse: true,
    }),
  ).toEqual({ type: PacketType.NULL_RESPONSE });
  const count = async (queueName: string): Promise<unknown> =>
    client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_QUEUEQUERY, queueName });
  expect(await count('subscription')).toMatchObject({ exists: true, messageCount: 1 });
  expect(await count('jms.topic.news')).toMatchObject({ exists: true, messageCount: 0 });
});
