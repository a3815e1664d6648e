// The baseline's producer and consumer: raw node:net against relay.mjs, with the same payloads
// framed by a 4-byte length. With cfg.durable the relay confirms to the producer what it has
// forwarded (a 4-byte count per forwarded batch) and the producer keeps at most cfg.inFlight
// frames unconfirmed; the consumer acks every frame (4 bytes each, one write per read).
import net from 'node:net';
import { ArrivalLog, createPayloadFactory, nowNs } from '../payload.mjs';

function rawConnect(cfg, roleByte) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: cfg.host, port: cfg.port }, () => {
      socket.setNoDelay(true);
      socket.write(roleByte);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function frame(payload) {
  const framed = Buffer.allocUnsafe(4 + payload.length);
  framed.writeUInt32BE(payload.length, 0);
  payload.copy(framed, 4);
  return framed;
}

/** Calls onUnit for each complete `unitBytes(data, offset)`-sized unit across chunk boundaries. */
function splitStream(socket, unitBytes, onUnits) {
  let carry = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let offset = 0;
    const units = [];
    while (offset + 4 <= data.length) {
      const end = offset + unitBytes(data, offset);
      if (end > data.length) break;
      units.push(data.subarray(offset, end));
      offset = end;
    }
    carry = data.subarray(offset);
    if (units.length > 0) onUnits(units);
  });
}

export async function rawProducer(cfg, report) {
  const socket = await rawConnect(cfg, cfg.durable ? 'Q' : 'P');
  const payloadFor = createPayloadFactory(cfg.size);
  let unconfirmed = 0;
  let wake = null;
  if (cfg.durable) {
    splitStream(
      socket,
      () => 4,
      (counts) => {
        for (const count of counts) unconfirmed -= count.readUInt32BE(0);
        wake?.();
      },
    );
  }
  await report.ready();
  const startedAtNs = nowNs();
  for (let seq = 0; seq < cfg.messages; seq++) {
    while (cfg.durable && unconfirmed >= cfg.inFlight) await new Promise((resolve) => (wake = resolve));
    unconfirmed++;
    if (!socket.write(frame(payloadFor(seq)))) await new Promise((resolve) => socket.once('drain', resolve));
  }
  while (cfg.durable && unconfirmed > 0) await new Promise((resolve) => (wake = resolve));
  report.done({ startedAtNs, finishedAtNs: nowNs() });
  socket.end();
}

export async function rawConsumer(cfg, report) {
  const socket = await rawConnect(cfg, 'C');
  const log = new ArrivalLog(cfg.messages);
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  splitStream(
    socket,
    (data, offset) => 4 + data.readUInt32BE(offset),
    (frames) => {
      for (const framed of frames) if (log.record(framed.subarray(4))) finish('complete');
      if (cfg.durable) socket.write(Buffer.alloc(4 * frames.length));
    },
  );
  report.onProducerDone(() =>
    report.watchForStall(
      () => log.unique,
      () => finish('stalled'),
    ),
  );
  await report.ready();
  const reason = await finished;
  report.done({ reason, ...log.summary() });
  socket.destroy();
}
