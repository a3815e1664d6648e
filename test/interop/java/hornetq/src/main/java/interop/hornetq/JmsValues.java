package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * A Java value as the driver's JSON writes it: {@code [javaType, value]}, javaType one of null,
 * boolean, byte, short, int, long, float, double, string, char, bytes, with TaggedJson's tags for
 * what JSON cannot hold (a long outside the safe range, NaN, bytes).
 */
final class JmsValues {
  private JmsValues() {}

  static ArrayNode describe(Object value) {
    ArrayNode typed = TaggedJson.NODES.arrayNode();
    if (value == null) return typed.add("null").addNull();
    if (value instanceof Boolean b) return typed.add("boolean").add(b);
    if (value instanceof Byte b) return typed.add("byte").add(b);
    if (value instanceof Short s) return typed.add("short").add(s);
    if (value instanceof Integer i) return typed.add("int").add(i);
    if (value instanceof Long l) return typed.add("long").add(TaggedJson.longValue(l));
    if (value instanceof Float f) return typed.add("float").add(TaggedJson.doubleValue(f));
    if (value instanceof Double d) return typed.add("double").add(TaggedJson.doubleValue(d));
    if (value instanceof Character c) return typed.add("char").add(String.valueOf(c));
    if (value instanceof byte[] bytes) return typed.add("bytes").add(TaggedJson.bytes(bytes));
    // SimpleString and String alike: a string.
    if (value instanceof CharSequence || value.getClass().getName().equals("org.hornetq.api.core.SimpleString")) {
      return typed.add("string").add(value.toString());
    }
    throw new IllegalArgumentException("no JSON form for a " + value.getClass().getName());
  }

  /** The Java value of {@code [javaType, value]}. */
  static Object parse(JsonNode typed) {
    if (!typed.isArray() || typed.size() != 2) throw new IllegalArgumentException("a typed value is [javaType, value], got " + typed);
    String type = typed.get(0).asText();
    JsonNode value = typed.get(1);
    return switch (type) {
      case "null" -> null;
      case "boolean" -> value.booleanValue();
      case "byte" -> (byte) value.intValue();
      case "short" -> (short) value.intValue();
      case "int" -> value.intValue();
      case "long" -> TaggedJson.longFrom(value);
      case "float" -> (float) TaggedJson.doubleFrom(value);
      case "double" -> TaggedJson.doubleFrom(value);
      case "string" -> value.isNull() ? null : value.asText();
      case "char" -> singleChar(value.asText());
      case "bytes" -> TaggedJson.bytesFrom(value);
      default -> throw new IllegalArgumentException("unknown javaType '" + type + "'");
    };
  }

  private static char singleChar(String text) {
    if (text.length() != 1) throw new IllegalArgumentException("a char is one UTF-16 unit, got '" + text + "'");
    return text.charAt(0);
  }
}
