// Baseline: the least a Node broker can do. A relay that takes length-prefixed frames from a
// producer connection and forwards each read's complete frames to the consumer connection in one
// write, over the same loopback TCP. The first byte of a connection says its role: P (producer),
// Q (producer that wants confirmations: a 4-byte count of frames after each forwarded batch,
// like a broker confirming sends), or C (consumer; in the confirmed mode it sends 4-byte acks,
// which the relay reads and drops).
import net from 'node:net';

let consumer = null;
const pendingForConsumer = [];

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  socket.once('readable', () => {
    const role = socket.read(1);
    if (role === null) return;
    if (role.toString() === 'C') {
      consumer = socket;
      socket.on('data', () => undefined); // acks: read so the consumer never blocks on them
      for (const chunk of pendingForConsumer.splice(0)) consumer.write(chunk);
    } else {
      relayFrames(socket, role.toString() === 'Q');
    }
  });
  socket.on('error', () => socket.destroy());
});

function relayFrames(producer, confirms) {
  let carry = Buffer.alloc(0);
  producer.on('data', (chunk) => {
    const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let end = 0;
    let frames = 0;
    while (end + 4 <= data.length) {
      const frameEnd = end + 4 + data.readUInt32BE(end);
      if (frameEnd > data.length) break;
      end = frameEnd;
      frames++;
    }
    carry = data.subarray(end);
    if (end === 0) return;
    const complete = data.subarray(0, end);
    if (consumer === null) pendingForConsumer.push(Buffer.from(complete));
    else if (!consumer.write(complete)) {
      producer.pause();
      consumer.once('drain', () => producer.resume());
    }
    if (confirms) {
      const count = Buffer.allocUnsafe(4);
      count.writeUInt32BE(frames, 0);
      producer.write(count);
    }
  });
}

server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
);
process.on('SIGTERM', () => process.exit(0));
