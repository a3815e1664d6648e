package interop.hornetq;

/** Deterministic test strings that exercise every UTF-16 case the encodings treat differently. */
final class Strings {
  /**
   * ASCII, NUL, DEL, a 2-byte and a 3-byte UTF-8 character and a surrogate pair, repeated; a pair
   * cut by the length ends the string on a lone high surrogate, which Java strings allow too.
   */
  private static final String CYCLE = "aZ\u0000\u007f\u00e9\u20ac\ud83d\ude00";

  private Strings() {}

  static String pattern(int length) {
    StringBuilder text = new StringBuilder(length);
    while (text.length() < length) text.append(CYCLE.charAt(text.length() % CYCLE.length()));
    return text.toString();
  }
}
