// The codec's cost per packet, in one process (no sockets): decoding a SESS_SEND as a client does
// (views) and as the broker does (a copy of its own), and encoding a delivery from a received
// message's wire bytes, from a message built in code, and a send. Twice: for a bare 1 KiB message,
// and for one with what a JMS message carries (a user id and five string properties, whose
// SimpleStrings are UTF-16: two bytes a character). CPU ns per operation (user + system, so another
// process on the machine disturbs it less than wall time); one JSON line.
//   npm run build && node bench/codec.mjs [--operations 500000]
import protocol from '../dist/core/protocol/index.js'; // internal: the codec is not public API

const { CoreMessage, FrameSlab, PacketType, PropertyKind, decodeFrame, encodePacket } = protocol;
const flag = process.argv.indexOf('--operations');
const operations = flag === -1 ? 500_000 : Number(process.argv[flag + 1]);

const built = new CoreMessage();
built.address = 'jms.queue.bench';
built.body = Buffer.alloc(1024, 'x');
built.timestamp = Date.now();

const jms = new CoreMessage();
jms.address = 'jms.queue.bench';
jms.body = Buffer.alloc(1024, 'x');
jms.timestamp = Date.now();
jms.durable = true;
jms.type = 3;
jms.userId = '6a1f2d3c-2b3d-11ef-9a4b-0242ac120002';
for (const [name, value] of [
  ['JMSCorrelationID', 'order-12345'],
  ['JMSType', 'com.example.OrderPlaced'],
  ['_HQ_GROUP_ID', 'customer-987'],
  ['__HQ_CID', 'b2c1a4f0-2b3d-11ef-9a4b-0242ac120002'],
  ['region', 'eu-west'],
]) {
  jms.properties.set(name, { kind: PropertyKind.STRING, value });
}

const sendOf = (message) => ({ type: PacketType.SESS_SEND, message, requiresResponse: false });
const sendFrame = encodePacket(11, sendOf(built));
const received = decodeFrame(sendFrame, true).packet.message;
const jmsSendFrame = encodePacket(11, sendOf(jms));
const jmsReceived = decodeFrame(jmsSendFrame, true).packet.message;
const slab = new FrameSlab();

/** CPU ns per call of `operation`, after a warm-up of a tenth as many calls. */
function nsPerOperation(operation) {
  for (let i = 0; i < operations / 10; i++) operation(i);
  const start = process.cpuUsage();
  for (let i = 0; i < operations; i++) operation(i);
  const used = process.cpuUsage(start);
  return Math.round(((used.user + used.system) * 1000) / operations);
}

const delivery = (message, i) => {
  message.messageId = i;
  encodePacket(11, { type: PacketType.SESS_RECEIVE_MSG, consumerId: 0, deliveryCount: 1, message }, slab);
};
process.stdout.write(
  `${JSON.stringify({
    operations,
    decode_send_client_ns: nsPerOperation(() => decodeFrame(sendFrame)),
    decode_send_broker_ns: nsPerOperation(() => decodeFrame(sendFrame, true)),
    encode_delivery_from_wire_ns: nsPerOperation((i) => delivery(received, i)),
    encode_delivery_built_ns: nsPerOperation((i) => delivery(built, i)),
    encode_send_ns: nsPerOperation(() => encodePacket(11, sendOf(built), slab)),
    jms_decode_send_client_ns: nsPerOperation(() => decodeFrame(jmsSendFrame)),
    jms_decode_send_broker_ns: nsPerOperation(() => decodeFrame(jmsSendFrame, true)),
    jms_encode_delivery_from_wire_ns: nsPerOperation((i) => delivery(jmsReceived, i)),
    jms_encode_delivery_built_ns: nsPerOperation((i) => delivery(jms, i)),
    jms_encode_send_ns: nsPerOperation(() => encodePacket(11, sendOf(jms), slab)),
    send_frame_bytes: sendFrame.length,
    jms_send_frame_bytes: jmsSendFrame.length,
  })}\n`,
);
