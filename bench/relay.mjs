// Baseline: the least a Node broker can do. A relay that takes length-prefixed frames from a
// producer connection and forwards each read's complete frames to the consumer connection in one
// write, over the same loopback TCP. The first byte of a connection says its role: P (producer),
// Q (producer that wants confirmations: a 4-byte count of frames once they are on disk, like a
// broker confirming durable sends), or C (consumer; in the confirmed mode it sends 4-byte acks,
// which the relay reads and drops).
// Q's frames go to a log file in BENCH_DATA_DIR with group commit, as a relay that confirms after
// its own group commit would: what arrives while one write + fdatasync runs is written and synced
// together by the next, and the confirmations of a group go out after its fdatasync. Frames are
// forwarded to the consumer at once, as our broker delivers before the sync.
import { open } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';

let consumer = null;
const pendingForConsumer = [];
let log = null;

/** An append-only file: one write and one fdatasync per group of appends, then their callbacks. */
class GroupCommitLog {
  constructor(handle) {
    this.handle = handle;
    this.position = 0;
    this.pending = [];
    this.flushing = false;
  }

  static async open(dir) {
    return new GroupCommitLog(await open(join(dir, 'relay.log'), 'w'));
  }

  /** `done` runs once `buffer` is on disk. */
  append(buffer, done) {
    this.pending.push({ buffer: Buffer.from(buffer), done });
    // Start on the next turn, so that everything this turn's reads bring joins the first group.
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => this.flush());
    }
  }

  async flush() {
    try {
      while (this.pending.length > 0) {
        const group = this.pending.splice(0);
        const data = group.length === 1 ? group[0].buffer : Buffer.concat(group.map((entry) => entry.buffer));
        let written = 0;
        while (written < data.length) {
          const { bytesWritten } = await this.handle.write(
            data,
            written,
            data.length - written,
            this.position,
          );
          written += bytesWritten;
          this.position += bytesWritten;
        }
        await this.handle.datasync();
        for (const entry of group) entry.done();
      }
      this.flushing = false;
    } catch (error) {
      // An fdatasync error is not retryable (what it failed to write may be lost): stop.
      process.stderr.write(`relay: the log failed: ${error.message}\n`);
      process.exit(1);
    }
  }
}

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
    if (confirms) {
      log.append(complete, () => {
        const count = Buffer.allocUnsafe(4);
        count.writeUInt32BE(frames, 0);
        producer.write(count);
      });
    }
    if (consumer === null) pendingForConsumer.push(Buffer.from(complete));
    else if (!consumer.write(complete)) {
      producer.pause();
      consumer.once('drain', () => producer.resume());
    }
  });
}

const dataDir = process.env.BENCH_DATA_DIR;
if (dataDir === undefined || dataDir === '') {
  throw new Error("BENCH_DATA_DIR must name the directory for the relay's log (bench/run.mjs makes one)");
}
log = await GroupCommitLog.open(dataDir);
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
);
process.on('SIGTERM', () => process.exit(0));
