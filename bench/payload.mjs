// The benchmark payload, laid out as ../shared/peers lays it out so the numbers compare:
// bytes 0..8 the send time (float64 LE, ns of the monotonic clock every process shares),
// bytes 8..12 the sequence number (uint32 LE), the rest filler.

export const nowNs = () => Number(process.hrtime.bigint());

const HEADER_BYTES = 12;

export function createPayloadFactory(size) {
  const template = Buffer.alloc(size, 'x');
  return (seq) => {
    const payload = Buffer.from(template);
    payload.writeDoubleLE(nowNs(), 0);
    payload.writeUInt32LE(seq, 8);
    return payload;
  };
}

/**
 * Counts unique arrivals by sequence number and keeps each one's latency; `histogram` (optional,
 * lib/latency-histogram.mjs) gets every latency too.
 */
export class ArrivalLog {
  constructor(expected, histogram = null) {
    this.expected = expected;
    this.histogram = histogram;
    this.seen = new Uint8Array(expected);
    this.latencyNs = new Float64Array(expected);
    this.unique = 0;
    this.duplicates = 0;
    this.outOfOrder = 0;
    this.lastSeq = -1;
    this.bytes = 0;
    this.lastAtNs = 0;
  }

  /** Records one payload; returns true once every expected message has arrived. */
  record(payload) {
    const at = nowNs();
    if (payload.length < HEADER_BYTES) throw new Error(`payload of ${payload.length} bytes is too short`);
    const sentAt = payload.readDoubleLE(0);
    const seq = payload.readUInt32LE(8);
    if (seq >= this.expected) throw new Error(`sequence ${seq} is beyond the ${this.expected} expected`);
    if (this.seen[seq]) {
      this.duplicates++;
      return this.unique === this.expected;
    }
    if (seq < this.lastSeq) this.outOfOrder++;
    this.lastSeq = seq;
    this.seen[seq] = 1;
    this.latencyNs[this.unique++] = at - sentAt;
    this.histogram?.recordNs(at - sentAt);
    this.bytes += payload.length;
    this.lastAtNs = at;
    return this.unique === this.expected;
  }

  summary() {
    const sorted = this.latencyNs.slice(0, this.unique).sort();
    const percentile = (p) =>
      sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
    return {
      received: this.unique,
      duplicates: this.duplicates,
      outOfOrder: this.outOfOrder,
      bytes: this.bytes,
      lastAtNs: this.lastAtNs,
      p50_latency_ms: round(percentile(0.5)),
      p99_latency_ms: round(percentile(0.99)),
      p999_latency_ms: round(percentile(0.999)),
      ...(this.histogram === null ? {} : { histogram_ms: this.histogram.summaryMs() }),
    };
  }
}

export function round(value, digits = 3) {
  return value === null ? null : Number(value.toFixed(digits));
}
