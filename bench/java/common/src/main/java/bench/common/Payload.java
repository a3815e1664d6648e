package bench.common;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The benchmark payload, laid out as bench/payload.mjs lays it out: bytes 0..8 the send time
 * (float64 little-endian, ns of the monotonic clock: System.nanoTime() on Linux reads the same
 * CLOCK_MONOTONIC as Node's process.hrtime, so the processes' clocks agree), bytes 8..12 the
 * sequence number (uint32 little-endian), the rest filler.
 */
public final class Payload {
  public static final int HEADER_BYTES = 12;

  private final byte[] template;

  public Payload(int size) {
    if (size < HEADER_BYTES) throw new IllegalArgumentException("SIZE must be at least " + HEADER_BYTES);
    template = new byte[size];
    Arrays.fill(template, (byte) 'x');
  }

  /** A fresh payload for `seq`, stamped now. */
  public byte[] forSequence(int seq) {
    byte[] payload = template.clone();
    ByteBuffer.wrap(payload)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putDouble(0, (double) System.nanoTime())
        .putInt(8, seq);
    return payload;
  }

  static double sentAtNs(byte[] header) {
    return ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getDouble(0);
  }

  static long sequence(byte[] header) {
    return Integer.toUnsignedLong(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(8));
  }
}
