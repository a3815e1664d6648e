/**
 * Packet type bytes: HornetQ 2.4's numbers (PacketImpl). The few packets of our own (producer
 * registration, queue statistics, a refused delivery, an error that answers no request) use
 * numbers HornetQ 2.4 and Artemis leave free, and travel only between two peers that negotiated
 * our extension (see ProtocolExtension): a real HornetQ or Artemis peer never receives one.
 */
export const PacketType = {
  PING: 10,
  DISCONNECT: 11,
  DISCONNECT_CONSUMER: 12,
  EXCEPTION: 20,
  NULL_RESPONSE: 21,
  PACKETS_CONFIRMED: 22,
  CREATESESSION: 30,
  CREATESESSION_RESP: 31,
  REATTACH_SESSION: 32,
  REATTACH_SESSION_RESP: 33,
  CREATE_QUEUE: 34,
  DELETE_QUEUE: 35,
  CREATE_SHARED_QUEUE: 36,
  SESS_CREATECONSUMER: 40,
  SESS_ACKNOWLEDGE: 41,
  SESS_EXPIRED: 42,
  SESS_COMMIT: 43,
  SESS_ROLLBACK: 44,
  SESS_QUEUEQUERY: 45,
  SESS_QUEUEQUERY_RESP: 46,
  SESS_BINDINGQUERY: 49,
  SESS_BINDINGQUERY_RESP: 50,
  SESS_START: 67,
  SESS_STOP: 68,
  SESS_CLOSE: 69,
  SESS_FLOWTOKEN: 70,
  SESS_SEND: 71,
  SESS_SEND_LARGE: 72,
  SESS_SEND_CONTINUATION: 73,
  SESS_CONSUMER_CLOSE: 74,
  SESS_RECEIVE_MSG: 75,
  SESS_RECEIVE_LARGE_MSG: 76,
  SESS_RECEIVE_CONTINUATION: 77,
  SESS_FORCE_CONSUMER_DELIVERY: 78,
  SESS_PRODUCER_REQUEST_CREDITS: 79,
  SESS_PRODUCER_CREDITS: 80,
  SESS_INDIVIDUAL_ACKNOWLEDGE: 81,
  SESS_PRODUCER_FAIL_CREDITS: 82,
  SESS_ADD_METADATA: 104,
  SESS_ADD_METADATA2: 105,
  SESS_UNIQUE_ADD_METADATA: 106,
  CLUSTER_TOPOLOGY: 110,
  /** A server announces itself (a backup to its live) on channel 0 of a connection to a peer. */
  NODE_ANNOUNCE: 111,
  SUBSCRIBE_TOPOLOGY: 112,
  SUBSCRIBE_TOPOLOGY_V2: 113,
  CLUSTER_TOPOLOGY_V2: 114,
  // Ours, extension only:
  SESS_CREATEPRODUCER: 107,
  SESS_CLOSEPRODUCER: 108,
  SESS_QUEUE_STATS: 140,
  SESS_QUEUE_STATS_RESP: 141,
  SESS_DELIVERY_REFUSED: 142,
  SESS_ASYNC_EXCEPTION: 143,
  /** Extension version 2: names the refused command (see SendRefused). */
  SESS_SEND_REFUSED: 144,
} as const;

export type PacketType = (typeof PacketType)[keyof typeof PacketType];

const NAMES = new Map<number, string>(Object.entries(PacketType).map(([name, code]) => [code, name]));

/** 'SESS_SEND(71)' for a known type, 'UNKNOWN(200)' otherwise: for log lines and errors. */
export function packetTypeName(type: number): string {
  return `${NAMES.get(type) ?? 'UNKNOWN'}(${type})`;
}

export function isKnownPacketType(type: number): type is PacketType {
  return NAMES.has(type);
}
