import {
  ARTEMIS_DIALECT,
  HORNETQ_DIALECT,
  ManagementErrorCode,
  durableSubscriptionOf,
} from '../../src/management';
import { toConnectionInfo } from '../../src/management/connection-info';
import { toConsumerInfo } from '../../src/management/consumer-info';
import { JsonFields } from '../../src/management/json-fields';
import { toQueueMessageInfo } from '../../src/management/queue-message-info';
import { fromArtemisQueueRow, fromHornetQSubscription } from '../../src/management/subscription-info';

/**
 * The servers' JSON, in the layouts their sources write (HornetQ 2.4: MessageImpl.toMap,
 * JMSServerControlImpl.listConnectionsAsJSON, JMSTopicControlImpl.listSubscribersInfosAsJSON,
 * QueueControlImpl.listConsumersAsJSON; Artemis 2.40: Message.toMap, ActiveMQServerControlImpl.
 * listConnectionsAsJSON, QueueView's string-valued rows), read into one typed form.
 */
const fields = new JsonFields('test request');

describe('listed messages', () => {
  test("HornetQ's map: headers out, properties (with _HQ_ORIG_*) kept", () => {
    const [map] = fields.objects(
      fields.parse(
        '[{"messageID":42,"userID":"ID:9f8709cb-07df-14f6-bb08-9ccba49202f6","address":"jms.queue.DLQ","type":3,"durable":true,"expiration":0,"timestamp":1796681427924,"priority":4,"_HQ_ORIG_ADDRESS":"jms.queue.jobs","_HQ_ORIG_QUEUE":"jms.queue.jobs","_HQ_ORIG_MESSAGE_ID":24,"region":"EU"}]',
      ),
    );
    expect(toQueueMessageInfo(HORNETQ_DIALECT, fields, map!)).toEqual({
      messageId: 42,
      userId: 'ID:9f8709cb-07df-14f6-bb08-9ccba49202f6',
      address: 'jms.queue.DLQ',
      durable: true,
      priority: 4,
      timestamp: 1796681427924,
      expiration: 0,
      type: 3,
      originalAddress: 'jms.queue.jobs',
      originalQueue: 'jms.queue.jobs',
      properties: {
        _HQ_ORIG_ADDRESS: 'jms.queue.jobs',
        _HQ_ORIG_QUEUE: 'jms.queue.jobs',
        _HQ_ORIG_MESSAGE_ID: 24,
        region: 'EU',
      },
    });
  });

  test("Artemis' map: _AMQ_ORIG_*, no userID, no type", () => {
    const map = fields.object(
      JSON.parse(
        '{"messageID":45,"address":"DLQ","durable":false,"expiration":0,"timestamp":1,"priority":9,"_AMQ_ORIG_QUEUE":"jobs","_AMQ_ORIG_ADDRESS":"jobs","__HQ_CID":"c2a3"}',
      ) as Record<string, string>,
    );
    expect(toQueueMessageInfo(ARTEMIS_DIALECT, fields, map)).toMatchObject({
      messageId: 45,
      userId: null,
      durable: false,
      priority: 9,
      type: null,
      originalQueue: 'jobs',
      originalAddress: 'jobs',
      properties: { _AMQ_ORIG_QUEUE: 'jobs', _AMQ_ORIG_ADDRESS: 'jobs', __HQ_CID: 'c2a3' },
    });
    // HornetQ's names mean nothing in Artemis' listing.
    expect(toQueueMessageInfo(HORNETQ_DIALECT, fields, map).originalQueue).toBeNull();
  });

  test('a missing header is a bad reply naming the request and the field', () => {
    expect(() => toQueueMessageInfo(HORNETQ_DIALECT, fields, { address: 'a' })).toThrow(
      expect.objectContaining({
        code: ManagementErrorCode.BAD_REPLY,
        message: "test request: field 'messageID' is not a number: absent",
      }) as unknown as Error,
    );
  });
});

describe('connections and consumers', () => {
  test("HornetQ's JMS connections (client id and principal) and Artemis' (session count)", () => {
    const hornetq = fields.objects(
      fields.parse(
        '[{"connectionID":"1394236277","clientAddress":"/127.0.0.1:40334","creationTime":1796681427000,"clientID":"victim","principal":null}]',
      ),
    );
    expect(hornetq.map((map) => toConnectionInfo(fields, map))).toEqual([
      {
        connectionId: '1394236277',
        clientAddress: '/127.0.0.1:40334',
        creationTime: 1796681427000,
        clientId: 'victim',
        user: null,
        sessionCount: null,
      },
    ]);
    const artemis = fields.object(
      JSON.parse(
        '{"connectionID":"7b1e2a5c","clientAddress":"127.0.0.1:40336","creationTime":5,"implementation":"NettyServerConnection","sessionCount":2}',
      ) as Record<string, string>,
    );
    expect(toConnectionInfo(fields, artemis)).toEqual({
      connectionId: '7b1e2a5c',
      clientAddress: '127.0.0.1:40336',
      creationTime: 5,
      clientId: null,
      user: null,
      sessionCount: 2,
    });
  });

  test('a consumer, the same fields in both', () => {
    const map = fields.object(
      JSON.parse(
        '{"consumerID":0,"connectionID":"c1","sessionID":"s1","browseOnly":false,"creationTime":7,"sequentialID":3,"status":"OK"}',
      ) as Record<string, string>,
    );
    expect(toConsumerInfo(fields, map)).toEqual({
      consumerId: 0,
      connectionId: 'c1',
      sessionId: 's1',
      browseOnly: false,
      creationTime: 7,
    });
  });
});

describe('subscriptions', () => {
  test("HornetQ's listAllSubscriptionsAsJSON item", () => {
    const [map] = fields.objects(
      fields.parse(
        '[{"queueName":"audit-client.audit","clientID":"audit-client","selector":null,"name":"audit","durable":true,"messageCount":3,"deliveringCount":1,"consumers":[{"consumerID":0}]}]',
      ),
    );
    expect(fromHornetQSubscription(fields, map!)).toEqual({
      queueName: 'audit-client.audit',
      clientId: 'audit-client',
      name: 'audit',
      durable: true,
      selector: null,
      messageCount: 3,
      deliveringCount: 1,
      consumerCount: 1,
    });
  });

  test("Artemis' listQueues row: every value a string, client id and name from the queue's name", () => {
    const row = fields.object(
      JSON.parse(
        '{"id":"12","name":"my\\\\.client.audit","address":"prices","filter":"","durable":"true","messageCount":"4","deliveringCount":"0","consumerCount":"0"}',
      ) as Record<string, string>,
    );
    expect(fromArtemisQueueRow(fields, row)).toEqual({
      queueName: 'my\\.client.audit',
      clientId: 'my.client',
      name: 'audit',
      durable: true,
      selector: null,
      messageCount: 4,
      deliveringCount: 0,
      consumerCount: 0,
    });
    const nonDurable = { ...row, name: 'b9f1c0de-0000', durable: 'false' };
    expect(fromArtemisQueueRow(fields, nonDurable)).toMatchObject({
      clientId: null,
      name: null,
      durable: false,
    });
  });

  test('durable subscription names read as HornetQDestination reads them', () => {
    expect(durableSubscriptionOf('c.n')).toEqual({ clientId: 'c', name: 'n' });
    expect(durableSubscriptionOf('a\\.b.c\\\\d')).toEqual({ clientId: 'a.b', name: 'c\\d' });
    expect(durableSubscriptionOf('one')).toBeNull();
    expect(durableSubscriptionOf('a.b.c')).toBeNull();
    expect(durableSubscriptionOf('trailing\\')).toBeNull();
  });
});
