package bench.common;

import java.util.Locale;

/**
 * One flat JSON object, built field by field: all the benchmark's lines need (numbers, booleans,
 * plain strings), without pulling a JSON library onto the classpath.
 */
final class JsonLine {
  private final StringBuilder text = new StringBuilder("{");

  JsonLine put(String name, String value) {
    return raw(name, value == null ? "null" : quoted(value));
  }

  JsonLine put(String name, boolean value) {
    return raw(name, Boolean.toString(value));
  }

  JsonLine put(String name, long value) {
    return raw(name, Long.toString(value));
  }

  /** A double in plain notation (no exponent); NaN (not measured) as null. */
  JsonLine put(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) return raw(name, "null");
    return raw(name, String.format(Locale.ROOT, "%.6f", value));
  }

  @Override
  public String toString() {
    return text + "}";
  }

  private JsonLine raw(String name, String jsonValue) {
    if (text.length() > 1) text.append(',');
    text.append(quoted(name)).append(':').append(jsonValue);
    return this;
  }

  private static String quoted(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    return out.append('"').toString();
  }
}
