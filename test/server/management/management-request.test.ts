import { BufferReader, BufferWriter, CoreMessage, PropertyKind } from '../../../src/core/protocol';
import {
  splitSubscriptionQueueName,
  subscriptionQueueNameOf,
} from '../../../src/server/management/durable-subscription-name';
import {
  MalformedRequest,
  managementReply,
  readManagementRequest,
  replyAddressOf,
} from '../../../src/server/management/management-request';

function request(properties: Record<string, string>, body?: string | null): CoreMessage {
  const message = new CoreMessage();
  for (const [name, value] of Object.entries(properties))
    message.properties.set(name, { kind: PropertyKind.STRING, value });
  if (body !== undefined) {
    const writer = new BufferWriter();
    writer.writeNullableSimpleString(body);
    message.body = writer.toBuffer();
  }
  return message;
}

describe('management requests in ManagementHelper’s layout', () => {
  test('an operation with its JSON-array parameters, an attribute, or neither', () => {
    expect(
      readManagementRequest(
        request({ _HQ_ResourceName: 'jms.queue.a', _HQ_OperationName: 'moveMessages' }, '[null,"b",true,3]'),
      ),
    ).toEqual({
      kind: 'operation',
      resource: 'jms.queue.a',
      operation: 'moveMessages',
      parameters: [null, 'b', true, 3],
    });
    expect(
      readManagementRequest(request({ _HQ_ResourceName: 'r', _HQ_OperationName: 'pause' }, null)),
    ).toMatchObject({
      parameters: [],
    });
    expect(
      readManagementRequest(request({ _HQ_ResourceName: 'r', _HQ_OperationName: 'pause' })),
    ).toMatchObject({
      parameters: [],
    });
    expect(readManagementRequest(request({ _HQ_ResourceName: 'r', _HQ_Attribute: 'MessageCount' }))).toEqual({
      kind: 'attribute',
      resource: 'r',
      attribute: 'MessageCount',
    });
    expect(readManagementRequest(request({ _HQ_ResourceName: 'r' }))).toEqual({
      kind: 'none',
      resource: 'r',
    });
  });

  test('parameters that are not a JSON array in a nullable string are refused, saying why', () => {
    const op = { _HQ_ResourceName: 'r', _HQ_OperationName: 'x' };
    expect(() => readManagementRequest(request(op, '{"a":1}'))).toThrow(/must be a JSON array/);
    expect(() => readManagementRequest(request(op, '[1,'))).toThrow(MalformedRequest);
    const truncated = request(op);
    truncated.body = Buffer.from([1, 0, 0, 0, 9]);
    expect(() => readManagementRequest(truncated)).toThrow(/nullable string/);
  });

  test('the reply: _HQ_OperationSucceeded and the result as a one-element JSON array, or a null body', () => {
    const reply = managementReply(true, 'text', 'jms.tempqueue.r');
    expect(reply.address).toBe('jms.tempqueue.r');
    expect(reply.properties.get('_HQ_OperationSucceeded')).toEqual({
      kind: PropertyKind.BOOLEAN,
      value: true,
    });
    expect(new BufferReader(reply.body).readNullableSimpleString()).toBe('["text"]');
    expect(new BufferReader(managementReply(false, null, 'x').body).readNullableSimpleString()).toBeNull();
    expect(replyAddressOf(request({ JMSReplyTo: 'jms.queue.back' }))).toBe('jms.queue.back');
    expect(replyAddressOf(request({}))).toBeNull();
  });
});

describe('durable subscription queue names (HornetQDestination’s escaping)', () => {
  test('split back into client id and name, escapes included; round-trips', () => {
    expect(splitSubscriptionQueueName('app.daily')).toEqual({ clientId: 'app', name: 'daily' });
    expect(splitSubscriptionQueueName('a\\.b.c\\\\d')).toEqual({ clientId: 'a.b', name: 'c\\d' });
    expect(splitSubscriptionQueueName('single')).toBeNull();
    expect(splitSubscriptionQueueName('a.b.c')).toBeNull();
    expect(splitSubscriptionQueueName('a.b\\')).toBeNull();
    const name = subscriptionQueueNameOf('my.client', 'sub\\1');
    expect(splitSubscriptionQueueName(name)).toEqual({ clientId: 'my.client', name: 'sub\\1' });
  });
});
