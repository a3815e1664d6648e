import { BufferReader } from '../../src/core/protocol/buffer-reader';
import { BufferWriter } from '../../src/core/protocol/buffer-writer';
import { CoreMessage } from '../../src/core/protocol/core-message';
import { PropertyKind } from '../../src/core/protocol/typed-properties';
import {
  ARTEMIS_DIALECT,
  HORNETQ_DIALECT,
  ManagementError,
  ManagementErrorCode,
  decodeManagementReply,
  encodeManagementRequest,
  managementDialect,
  type ManagementDialect,
} from '../../src/management';

/**
 * Requests as HornetQ's and Artemis' ManagementHelper.putOperationInvocation / putAttribute write
 * them, and answers as their ManagementServiceImpl.handleMessage writes them (storeResult: a JSON
 * array of one result in a nullable string body; the succeeded flag in a boolean property).
 */
function stringProperty(message: CoreMessage, name: string): unknown {
  return message.properties.get(name)?.value;
}

function bodyText(message: CoreMessage): string | null {
  return new BufferReader(message.body).readNullableSimpleString();
}

function reply(dialect: ManagementDialect, succeeded: boolean | null, body: string | null): CoreMessage {
  const message = new CoreMessage();
  if (succeeded !== null)
    message.properties.set(dialect.succeededProperty, { kind: PropertyKind.BOOLEAN, value: succeeded });
  const writer = new BufferWriter();
  writer.writeNullableSimpleString(body);
  message.body = writer.toBuffer();
  return message;
}

describe('management requests', () => {
  test.each([
    [
      'hornetq',
      HORNETQ_DIALECT,
      'jms.queue.hornetq.management',
      '_HQ_ResourceName',
      '_HQ_OperationName',
      'core.queue.jms.queue.orders',
    ],
    [
      'artemis',
      ARTEMIS_DIALECT,
      'activemq.management',
      '_AMQ_ResourceName',
      '_AMQ_OperationName',
      'queue.orders',
    ],
  ])(
    'an operation in the %s dialect',
    (_name, dialect, address, resourceProperty, operationProperty, resource) => {
      const queue = dialect === HORNETQ_DIALECT ? 'jms.queue.orders' : 'orders';
      expect(dialect.queueResource(queue)).toBe(resource);
      const message = encodeManagementRequest(
        dialect,
        { resource, operation: 'moveMessages', parameters: ["region = 'US'", 'archive', 3, true, null] },
        'reply.queue',
      );
      expect(message.address).toBe(address);
      expect(stringProperty(message, resourceProperty)).toBe(resource);
      expect(stringProperty(message, operationProperty)).toBe('moveMessages');
      expect(stringProperty(message, 'JMSReplyTo')).toBe('reply.queue');
      expect(message.properties.has(dialect.attributeProperty)).toBe(false);
      expect(JSON.parse(bodyText(message)!)).toEqual(["region = 'US'", 'archive', 3, true, null]);
    },
  );

  test('an operation without parameters sends an empty array', () => {
    const message = encodeManagementRequest(
      HORNETQ_DIALECT,
      { resource: 'core.queue.q', operation: 'pause' },
      'r',
    );
    expect(bodyText(message)).toBe('[]');
  });

  test('an attribute names it and sends no parameters (a null body string)', () => {
    const message = encodeManagementRequest(
      ARTEMIS_DIALECT,
      { resource: 'queue.q', attribute: 'MessageCount' },
      'r',
    );
    expect(stringProperty(message, '_AMQ_Attribute')).toBe('MessageCount');
    expect(message.properties.has('_AMQ_OperationName')).toBe(false);
    expect(bodyText(message)).toBeNull();
  });

  test('a dialect by name; an unknown name lists the known ones', () => {
    expect(managementDialect('artemis')).toBe(ARTEMIS_DIALECT);
    expect(() => managementDialect('rabbit')).toThrow(
      new RangeError("management dialect 'rabbit' is not one of: hornetq, artemis"),
    );
  });
});

describe('management answers', () => {
  const count = { resource: 'core.queue.jms.queue.orders', operation: 'countMessages', parameters: [null] };

  test.each([HORNETQ_DIALECT, ARTEMIS_DIALECT])(
    'a result is the first item of the body array (%#)',
    (dialect) => {
      expect(decodeManagementReply(dialect, count, reply(dialect, true, '[7]'))).toBe(7);
      // listMessagesAsJSON answers a string holding JSON, as a string.
      expect(decodeManagementReply(dialect, count, reply(dialect, true, '["[{\\"a\\":1}]"]'))).toBe(
        '[{"a":1}]',
      );
      // A void operation (pause) stores no result: a null body.
      expect(decodeManagementReply(dialect, count, reply(dialect, true, null))).toBeNull();
    },
  );

  test("a failed operation is a ManagementError with the server's text", () => {
    const answer = reply(
      HORNETQ_DIALECT,
      false,
      '["Cannot find resource with name core.queue.jms.queue.nope"]',
    );
    let error: unknown;
    try {
      decodeManagementReply(HORNETQ_DIALECT, count, answer);
    } catch (thrown) {
      error = thrown;
    }
    expect(ManagementError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: ManagementErrorCode.OPERATION_FAILED,
      request: 'core.queue.jms.queue.orders countMessages',
      message:
        'core.queue.jms.queue.orders countMessages: the server failed it: Cannot find resource with name core.queue.jms.queue.nope',
    });
  });

  test('an answer in the other dialect, or none, is a bad reply naming the property', () => {
    // Artemis answers a request whose _HQ_ names it cannot read with an empty answer.
    const artemisAnswer = reply(ARTEMIS_DIALECT, true, '[1]');
    expect(() => decodeManagementReply(HORNETQ_DIALECT, count, artemisAnswer)).toThrow(
      /has no boolean _HQ_OperationSucceeded property/,
    );
    expect(() => decodeManagementReply(HORNETQ_DIALECT, count, reply(HORNETQ_DIALECT, null, null))).toThrow(
      expect.objectContaining({ code: ManagementErrorCode.BAD_REPLY }) as unknown as Error,
    );
  });

  test('a body that is not a JSON array is a bad reply quoting it', () => {
    expect(() => decodeManagementReply(HORNETQ_DIALECT, count, reply(HORNETQ_DIALECT, true, 'oops'))).toThrow(
      /the answer body is not JSON: oops/,
    );
    expect(() =>
      decodeManagementReply(HORNETQ_DIALECT, count, reply(HORNETQ_DIALECT, true, '{"a":1}')),
    ).toThrow(/not a JSON array/);
  });
});
