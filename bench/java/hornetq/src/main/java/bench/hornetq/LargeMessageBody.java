package bench.hornetq;

/**
 * The body of the large-message scenario: byte i is (i * 31 + (i >>> 9)) & 0xff. Not constant and
 * not periodic within a chunk, so a chunk dropped, repeated or misplaced changes the SHA-256.
 */
final class LargeMessageBody {
  private LargeMessageBody() {}

  static byte[] of(int size) {
    byte[] body = new byte[size];
    for (int i = 0; i < size; i++) body[i] = (byte) (i * 31 + (i >>> 9));
    return body;
  }
}
