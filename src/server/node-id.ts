/**
 * The broker's node id: the UUID its topology answers and its DISCONNECT name. A broker that keeps
 * its own journal keeps the id in server.lock (bytes 3 to 18, as HornetQ does), so that a restart
 * does not make it another server in its clients' eyes; one without gets a fresh id for its life.
 * These convert between the 16 bytes stored and the string clients see.
 */

/** Bytes in a stored node id. */
export const NODE_ID_BYTES = 16;

/** HornetQ's UUID string: the 16 bytes in order, as 8-4-4-4-12 hex digits. */
export function nodeIdOf(bytes: Buffer): string {
  if (bytes.length !== NODE_ID_BYTES)
    throw new RangeError(`a node id has ${NODE_ID_BYTES} bytes, not ${bytes.length}`);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 16 bytes of a node id string (a UUID). */
export function nodeIdBytes(nodeId: string): Buffer {
  if (!UUID_PATTERN.test(nodeId)) throw new RangeError(`the node id ${JSON.stringify(nodeId)} is no UUID`);
  return Buffer.from(nodeId.replaceAll('-', ''), 'hex');
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
