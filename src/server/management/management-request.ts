import { BufferReader, BufferWriter, CoreMessage, PropertyKind } from '../../core/protocol';

/** The properties of HornetQ's management messages (ManagementHelper.HDR_*). */
export const ManagementHeader = {
  RESOURCE_NAME: '_HQ_ResourceName',
  OPERATION_NAME: '_HQ_OperationName',
  ATTRIBUTE: '_HQ_Attribute',
  OPERATION_SUCCEEDED: '_HQ_OperationSucceeded',
} as const;

/** Where the reply to a management message goes: the core address its JMSReplyTo names. */
const REPLY_TO = 'JMSReplyTo';

/** A parameter as a JSON array in the request's body carries it. */
export type ManagementParameter = string | number | boolean | null | ManagementParameter[] | object;

/** What a management message asks: an operation with parameters, or an attribute. */
export type ManagementRequest =
  | { kind: 'operation'; resource: string; operation: string; parameters: ManagementParameter[] }
  | { kind: 'attribute'; resource: string; attribute: string }
  /** Neither an operation nor an attribute: HornetQ answers nothing in particular (an empty reply). */
  | { kind: 'none'; resource: string | null };

/** A request that cannot be read: answered as a failure with this text. */
export class MalformedRequest extends Error {}

/**
 * Reads a management message as HornetQ's ManagementHelper writes it: `_HQ_ResourceName`, then
 * `_HQ_OperationName` with the parameters as a JSON array in the body (a nullable SimpleString,
 * the layout of a text message's body too), or `_HQ_Attribute`.
 */
export function readManagementRequest(message: CoreMessage): ManagementRequest {
  const resource = stringProperty(message, ManagementHeader.RESOURCE_NAME);
  const operation = stringProperty(message, ManagementHeader.OPERATION_NAME);
  if (operation !== null) {
    return {
      kind: 'operation',
      resource: resource ?? '',
      operation,
      parameters: readParameters(message.body),
    };
  }
  const attribute = stringProperty(message, ManagementHeader.ATTRIBUTE);
  if (attribute !== null) return { kind: 'attribute', resource: resource ?? '', attribute };
  return { kind: 'none', resource };
}

/** The address a management message wants its reply at, or null (then nobody hears the result). */
export function replyAddressOf(message: CoreMessage): string | null {
  return stringProperty(message, REPLY_TO);
}

/**
 * The reply HornetQ's ManagementHelper.storeResult writes: `_HQ_OperationSucceeded`, and the result
 * as a one-element JSON array in the body (a null result as a null string). A failure's result is
 * its error text.
 */
export function managementReply(succeeded: boolean, result: unknown, address: string): CoreMessage {
  const reply = new CoreMessage();
  reply.address = address;
  reply.timestamp = Date.now();
  reply.properties.set(ManagementHeader.OPERATION_SUCCEEDED, {
    kind: PropertyKind.BOOLEAN,
    value: succeeded,
  });
  const writer = new BufferWriter();
  writer.writeNullableSimpleString(result === null || result === undefined ? null : JSON.stringify([result]));
  reply.body = writer.toBuffer();
  return reply;
}

function readParameters(body: Buffer): ManagementParameter[] {
  if (body.length === 0) return [];
  let json: string | null;
  try {
    json = new BufferReader(body).readNullableSimpleString();
  } catch (error) {
    throw new MalformedRequest(
      `the body must hold the parameters as a JSON array in a nullable string (ManagementHelper's layout): ${(error as Error).message}`,
    );
  }
  if (json === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new MalformedRequest(`the parameters are not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new MalformedRequest('the parameters must be a JSON array');
  return parsed as ManagementParameter[];
}

function stringProperty(message: CoreMessage, name: string): string | null {
  const value = message.properties.get(name);
  return value !== undefined && value.kind === PropertyKind.STRING ? value.value : null;
}
