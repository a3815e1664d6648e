// What a message the broker holds costs in memory, measured against CoreMessage.memoryEstimate()
// (what an address' max-size-bytes counts). For each shape, it sends N messages through the
// broker's decoding (a detached copy, as a SESS_SEND arrives), keeps each as a routed message with
// one reference in a queue list and (durable) in the in-memory storage, as the post office does,
// and divides the growth of V8's heap plus
// external memory (Buffers, external strings) after a full GC by N. The constants in
// core-message.ts and message-reference.ts are chosen so that every ratio here is at least 1.
//   npm run build && node --expose-gc bench/message-memory.mjs [--messages 2000]
//
// Node 20.20, x64, 2026-12-01 (bytes per message: wire, measured, estimate, estimate / measured):
//   no properties, empty body                            66      848     1385  1.63
//   few properties, 100 B body                          289     1876     2334  1.24
//   1000 tiny properties (empty strings)              16401   110083   172390  1.57
//   1100 tiny properties (a Map just past a doubling)  18146   147262   189824  1.29
//   1100 one-character string properties              19246   148384   193124  1.30
//   1000 tiny properties (nulls)                      12401   106071   168390  1.59
//   1000 double properties                            20401   130071   176390  1.36
//   1100 tiny bytes properties                        19246   272235   332824  1.22
//   2 large ASCII string properties (64 KiB each)    131161   262410   263840  1.005
//   2 large Latin-1 string properties (32 Ki chars)  131161   197990   263840  1.33
//   2 large CJK string properties (20 Ki chars)      122969   206260   206496  1.001
//   2 large ASCII strings with one CJK character     131165   394574   394916  1.001
//   large body (256 KiB)                             262209   263071   263525  1.002
// Runs vary by about 100 bytes per message in the small shapes.
import protocol from '../dist/core/protocol/index.js'; // internal: the codec is not public API
import postoffice from '../dist/server/postoffice/message-reference.js';
import lists from '../dist/server/postoffice/linked-list.js';
import storage from '../dist/server/storage/in-memory-storage.js';

const { CoreMessage, PacketType, PropertyKind, decodeFrame, encodePacket } = protocol;
const { RoutedMessage, MessageReference } = postoffice;
const { LinkedList } = lists;
const { InMemoryStorage } = storage;

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const flag = process.argv.indexOf('--messages');
const messages = flag === -1 ? 2000 : Number(process.argv[flag + 1]);

const string = (value) => ({ kind: PropertyKind.STRING, value });
const ascii = (length) => 'x'.repeat(length);
/** CJK: three bytes each in UTF-8, a two-byte string in V8. */
const cjk = (length) => '\u4e2d'.repeat(length);
/** Latin-1 beyond ASCII: two bytes each in UTF-8, a one-byte string in V8. */
const latin1 = (length) => '\u00e9'.repeat(length);

/** Each shape builds message `i`; names differ per message so that no decoded string is shared. */
const shapes = {
  'no properties, empty body': () => {},
  'few properties, 100 B body': (message, i) => {
    message.properties.set(`JMSXGroupID${i}`, string('orders'));
    message.properties.set(`traceId${i}`, string('4bf92f3577b34da6a3ce929d0e0e4736'));
    message.properties.set(`attempt${i}`, { kind: PropertyKind.INT, value: 3 });
    message.properties.set(`sentAt${i}`, { kind: PropertyKind.LONG, value: Date.now() + i });
    message.body = Buffer.alloc(100, 'b');
  },
  '1000 tiny properties (empty strings)': (message, i) => {
    for (let k = 0; k < 1000; k++) message.properties.set(`${i}.${k}`, string(''));
  },
  '1100 tiny properties (a Map just past a doubling)': (message, i) => {
    for (let k = 0; k < 1100; k++) message.properties.set(`${i}.${k}`, string(''));
  },
  '1100 one-character string properties': (message, i) => {
    for (let k = 0; k < 1100; k++) message.properties.set(`${i}.${k}`, string('v'));
  },
  '1000 tiny properties (nulls)': (message, i) => {
    for (let k = 0; k < 1000; k++)
      message.properties.set(`${i}.${k}`, { kind: PropertyKind.NULL, value: null });
  },
  '1000 double properties': (message, i) => {
    for (let k = 0; k < 1000; k++)
      message.properties.set(`${i}.${k}`, { kind: PropertyKind.DOUBLE, value: k + 0.5 });
  },
  '1100 tiny bytes properties': (message, i) => {
    for (let k = 0; k < 1100; k++)
      message.properties.set(`${i}.${k}`, { kind: PropertyKind.BYTES, value: Buffer.alloc(1) });
  },
  '2 large ASCII string properties (64 KiB each)': (message, i) => {
    message.properties.set(`a${i}`, string(ascii(65536)));
    message.properties.set(`b${i}`, string(ascii(65536)));
  },
  '2 large Latin-1 string properties (32 Ki chars each)': (message, i) => {
    message.properties.set(`a${i}`, string(latin1(32768)));
    message.properties.set(`b${i}`, string(latin1(32768)));
  },
  '2 large CJK string properties (20 Ki chars each)': (message, i) => {
    message.properties.set(`a${i}`, string(cjk(20480)));
    message.properties.set(`b${i}`, string(cjk(20480)));
  },
  '2 large ASCII string properties with one CJK character (64 Ki chars each)': (message, i) => {
    message.properties.set(`a${i}`, string(`${ascii(65535)}\u4e2d`));
    message.properties.set(`b${i}`, string(`${ascii(65535)}\u4e2d`));
  },
  'large body (256 KiB)': (message) => {
    message.body = Buffer.alloc(256 * 1024, 'b');
  },
};

/** Bytes of heap and external memory in use after a full collection. */
function memoryInUse() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** The frames a client would send: built before measuring, so that only what is kept counts. */
function framesOf(shape, count) {
  const frames = [];
  for (let i = 0; i < count; i++) {
    const message = new CoreMessage();
    message.address = 'jms.queue.memory';
    message.durable = true;
    message.timestamp = Date.now();
    message.userId = `ID:${i}`;
    shape(message, i);
    frames.push(encodePacket(11, { type: PacketType.SESS_SEND, message, requiresResponse: false }));
  }
  return frames;
}

function measure(name, shape, count) {
  // The frames stay until after the measurement: what they free must not hide what is kept.
  const frames = framesOf(shape, count);
  const queue = new LinkedList();
  const store = new InMemoryStorage();
  store.storeQueue({ name: 'memory', address: 'jms.queue.memory', filter: null });
  const before = memoryInUse();
  let estimate = 0;
  let wire = 0;
  for (const [i, frame] of frames.entries()) {
    const message = decodeFrame(frame, true).packet.message;
    message.messageId = i + 1;
    const routed = new RoutedMessage(message, message.encodedSize());
    estimate += routed.addressBytesFor(1);
    queue.addTail(new MessageReference(routed, queue));
    store.storeMessage(message, ['memory']);
    wire += routed.size;
  }
  const measured = (memoryInUse() - before) / count;
  frames.length = 0;
  const perMessage = estimate / count;
  const row = {
    shape: name,
    messages: count,
    wireBytes: Math.round(wire / count),
    measuredBytes: Math.round(measured),
    estimateBytes: Math.round(perMessage),
    ratio: Number((perMessage / measured).toFixed(3)),
  };
  if (queue.size !== count) throw new Error('lost a message');
  return row;
}

/** Fewer messages of the large shapes, so that a run stays within a small heap. */
const countFor = (name) => (name.includes('large') ? Math.max(50, messages / 20) : messages);
// A first pass compiles the code and grows the tables the measured pass would otherwise count.
for (const [name, shape] of Object.entries(shapes)) measure(name, shape, 20);
const rows = Object.entries(shapes).map(([name, shape]) => measure(name, shape, countFor(name)));
console.table(rows);
const low = rows.filter((row) => row.estimateBytes < row.measuredBytes);
if (low.length > 0) {
  console.error(`estimate below the measured cost for: ${low.map((row) => row.shape).join('; ')}`);
  process.exitCode = 1;
}
