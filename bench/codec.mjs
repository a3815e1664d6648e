// The codec's cost per packet, in one process (no sockets): decoding a SESS_SEND as a client does
// (views) and as the broker does (a copy of its own), and encoding a delivery from a received
// message's wire bytes, from a message built in code, and a send. CPU ns per operation (user +
// system, so another process on the machine disturbs it less than wall time); one JSON line.
//   npm run build && node bench/codec.mjs [--operations 500000]
import protocol from '../dist/core/protocol/index.js'; // internal: the codec is not public API

const { CoreMessage, FrameSlab, PacketType, decodeFrame, encodePacket } = protocol;
const flag = process.argv.indexOf('--operations');
const operations = flag === -1 ? 500_000 : Number(process.argv[flag + 1]);

const built = new CoreMessage();
built.address = 'jms.queue.bench';
built.body = Buffer.alloc(1024, 'x');
built.timestamp = Date.now();
const sendFrame = encodePacket(11, { type: PacketType.SESS_SEND, message: built, requiresResponse: false });
const received = decodeFrame(sendFrame, true).packet.message;
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
    encode_send_ns: nsPerOperation(() =>
      encodePacket(11, { type: PacketType.SESS_SEND, message: built, requiresResponse: false }, slab),
    ),
  })}\n`,
);
