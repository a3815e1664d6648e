import { BufferReader } from '../core/protocol/buffer-reader';
import { BufferWriter } from '../core/protocol/buffer-writer';
import { CoreMessage } from '../core/protocol/core-message';
import { PropertyKind } from '../core/protocol/typed-properties';
import type { ManagementDialect } from './management-dialect';
import { ManagementError, ManagementErrorCode } from './management-error';

/** A value a management operation takes or returns: what JSON can carry. */
export type ManagementValue =
  string | number | boolean | null | readonly ManagementValue[] | { readonly [key: string]: ManagementValue };

/** One request: an operation with its parameters, or an attribute to read. */
export type ManagementRequest =
  | {
      readonly resource: string;
      readonly operation: string;
      readonly parameters?: readonly ManagementValue[];
    }
  | { readonly resource: string; readonly attribute: string };

/** Where the server sends its answer (ClientMessageImpl.REPLYTO_HEADER_NAME, both families). */
export const REPLY_TO_PROPERTY = 'JMSReplyTo';

/** `core.queue.X countMessages`: how errors name a request. */
export function describeRequest(request: ManagementRequest): string {
  return `${request.resource} ${'operation' in request ? request.operation : request.attribute}`;
}

/**
 * The message ManagementHelper.putOperationInvocation / putAttribute makes: the names in
 * properties, the parameters as a JSON array in the body (a nullable string, as a text message's
 * body is), and the reply-to queue.
 */
export function encodeManagementRequest(
  dialect: ManagementDialect,
  request: ManagementRequest,
  replyTo: string,
): CoreMessage {
  const message = new CoreMessage();
  message.address = dialect.managementAddress;
  setString(message, dialect.resourceProperty, request.resource);
  setString(message, REPLY_TO_PROPERTY, replyTo);
  if ('operation' in request) {
    setString(message, dialect.operationProperty, request.operation);
    message.body = nullableStringBody(JSON.stringify(request.parameters ?? []));
  } else {
    setString(message, dialect.attributeProperty, request.attribute);
    message.body = nullableStringBody(null);
  }
  return message;
}

/**
 * The result of an answer (ManagementHelper.getResult: the first item of the JSON array in its
 * body, null when the body holds none), or the ManagementError it reports: a failed operation's
 * answer holds the server's exception message as its result.
 */
export function decodeManagementReply(
  dialect: ManagementDialect,
  request: ManagementRequest,
  reply: CoreMessage,
): ManagementValue {
  const what = describeRequest(request);
  const succeeded = reply.properties.get(dialect.succeededProperty);
  if (succeeded?.kind !== PropertyKind.BOOLEAN) {
    throw new ManagementError(
      ManagementErrorCode.BAD_REPLY,
      what,
      `the answer has no boolean ${dialect.succeededProperty} property: the server does not speak the ${dialect.name} management dialect, or it knows no such resource`,
    );
  }
  const result = resultOf(reply.body, what);
  if (!succeeded.value) {
    const text = typeof result === 'string' ? result : JSON.stringify(result);
    throw new ManagementError(ManagementErrorCode.OPERATION_FAILED, what, `the server failed it: ${text}`);
  }
  return result;
}

function resultOf(body: Buffer, what: string): ManagementValue {
  let json: string | null;
  try {
    json = body.length === 0 ? null : new BufferReader(body).readNullableSimpleString();
  } catch (error) {
    throw new ManagementError(ManagementErrorCode.BAD_REPLY, what, 'the answer body is not a string', {
      cause: error,
    });
  }
  if (json === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ManagementError(
      ManagementErrorCode.BAD_REPLY,
      what,
      `the answer body is not JSON: ${json.slice(0, 80)}`,
      { cause: error },
    );
  }
  if (!Array.isArray(parsed)) {
    throw new ManagementError(
      ManagementErrorCode.BAD_REPLY,
      what,
      `the answer body is not a JSON array: ${json.slice(0, 80)}`,
    );
  }
  return parsed.length === 0 ? null : (parsed[0] as ManagementValue);
}

function nullableStringBody(text: string | null): Buffer {
  const writer = new BufferWriter(text === null ? 1 : 5 + 2 * text.length);
  writer.writeNullableSimpleString(text);
  return writer.toBuffer();
}

function setString(message: CoreMessage, name: string, value: string): void {
  message.properties.set(name, { kind: PropertyKind.STRING, value });
}
