package bench.common;

import java.util.Arrays;

/**
 * Counts unique arrivals by sequence number and keeps each one's latency, as bench/payload.mjs's
 * ArrivalLog does; summary() has the fields bench/lib/throughput.mjs reads from a consumer.
 * Called from the consumer's delivery thread only (Artemis' and HornetQ's clients
 * call one handler at a time, in order); synchronized because the stall watch reads unique().
 */
final class ArrivalLog {
  private final int expected;
  private final boolean[] seen;
  private final double[] latencyNs;
  private int unique;
  private int duplicates;
  private int outOfOrder;
  private long lastSeq = -1;
  private long bytes;
  private long lastAtNs;

  ArrivalLog(int expected) {
    this.expected = expected;
    this.seen = new boolean[expected];
    this.latencyNs = new double[expected];
  }

  /** Records one payload; returns true once every expected message has arrived. */
  synchronized boolean record(byte[] header, int bodySize) {
    long at = System.nanoTime();
    if (bodySize < Payload.HEADER_BYTES) {
      throw new IllegalStateException("payload of " + bodySize + " bytes is too short");
    }
    long seq = Payload.sequence(header);
    if (seq >= expected) {
      throw new IllegalStateException("sequence " + seq + " is beyond the " + expected + " expected");
    }
    if (seen[(int) seq]) {
      duplicates++;
      return unique == expected;
    }
    if (seq < lastSeq) outOfOrder++;
    lastSeq = seq;
    seen[(int) seq] = true;
    latencyNs[unique++] = at - Payload.sentAtNs(header);
    bytes += bodySize;
    lastAtNs = at;
    return unique == expected;
  }

  synchronized int unique() {
    return unique;
  }

  synchronized JsonLine summary(JsonLine line) {
    double[] sorted = Arrays.copyOf(latencyNs, unique);
    Arrays.sort(sorted);
    return line.put("received", unique)
        .put("duplicates", duplicates)
        .put("outOfOrder", outOfOrder)
        .put("bytes", bytes)
        .put("lastAtNs", lastAtNs)
        .put("p50_latency_ms", percentileMs(sorted, 0.5))
        .put("p99_latency_ms", percentileMs(sorted, 0.99))
        .put("p999_latency_ms", percentileMs(sorted, 0.999));
  }

  private static double percentileMs(double[] sorted, double p) {
    if (sorted.length == 0) return Double.NaN;
    double ns = sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    return Math.round(ns / 1e6 * 1000) / 1000.0;
  }
}
