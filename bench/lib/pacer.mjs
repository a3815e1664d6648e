// Paces a producer to a fixed rate: message `seq` is due at start + seq / rate. Timers fire with
// 1 ms granularity, so at tens of thousands per second messages leave in bursts of one
// millisecond's worth; each payload is stamped when it is built, after the wait, so the burst
// does not count as latency of the ones that waited.
import { setTimeout as sleep } from 'node:timers/promises';
import { nowNs } from '../payload.mjs';

export function createPacer(messagesPerSecond) {
  let startNs = null;
  return async (seq) => {
    startNs ??= nowNs();
    const dueNs = startNs + (seq * 1e9) / messagesPerSecond;
    const aheadMs = (dueNs - nowNs()) / 1e6;
    if (aheadMs >= 1) await sleep(aheadMs);
  };
}
