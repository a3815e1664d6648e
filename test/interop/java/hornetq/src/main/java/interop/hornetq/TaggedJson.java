package interop.hornetq;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hornetq.api.core.HornetQBuffer;
import org.hornetq.api.core.SimpleString;

/**
 * How the golden vectors and the JMS driver's answers write values that JSON has no exact form for,
 * as tagged objects a TypeScript reviver turns back into values: bytes as {"$bytes": hex}, a long
 * outside JavaScript's safe-integer range as {"$bigint": decimal}, a non-finite or negative-zero
 * float as {"$double": "NaN" | "Infinity" | "-Infinity" | "-0"}. Every non-ASCII character is
 * written as a \\u escape, so lone surrogates survive the trip.
 */
final class TaggedJson {
  /** Indented, for committed files. */
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();
  /** One line per document, for the driver's answers. */
  static final ObjectMapper LINES = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

  private TaggedJson() {}

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ObjectNode bytes(byte[] value) {
    return object().put("$bytes", hex(value));
  }

  static JsonNode longValue(long value) {
    if (value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER) return NODES.numberNode(value);
    return object().put("$bigint", Long.toString(value));
  }

  static JsonNode doubleValue(double value) {
    if (Double.isNaN(value)) return object().put("$double", "NaN");
    if (Double.isInfinite(value)) return object().put("$double", value > 0 ? "Infinity" : "-Infinity");
    if (value == 0 && Double.doubleToRawLongBits(value) != 0) return object().put("$double", "-0");
    return NODES.numberNode(value);
  }

  static JsonNode string(String value) {
    return value == null ? NODES.nullNode() : NODES.textNode(value);
  }

  static JsonNode string(SimpleString value) {
    return value == null ? NODES.nullNode() : NODES.textNode(value.toString());
  }

  static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) text.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    return text.toString();
  }

  /** The buffer's bytes from `from` up to its writer index. */
  static String hex(HornetQBuffer buffer, int from) {
    byte[] bytes = new byte[buffer.writerIndex() - from];
    buffer.getBytes(from, bytes);
    return hex(bytes);
  }

  /** A long from a JSON number, a decimal string or a {"$bigint"} tag. */
  static long longFrom(JsonNode node) {
    if (node.isObject() && node.has("$bigint")) return Long.parseLong(node.get("$bigint").asText());
    if (node.isTextual()) return Long.parseLong(node.asText());
    if (node.isIntegralNumber() && node.canConvertToLong()) return node.asLong();
    throw new IllegalArgumentException("not a long: " + node);
  }

  /** A double from a JSON number or a {"$double"} tag. */
  static double doubleFrom(JsonNode node) {
    if (node.isNumber()) return node.asDouble();
    if (node.isObject() && node.has("$double")) {
      return switch (node.get("$double").asText()) {
        case "NaN" -> Double.NaN;
        case "Infinity" -> Double.POSITIVE_INFINITY;
        case "-Infinity" -> Double.NEGATIVE_INFINITY;
        case "-0" -> -0.0;
        default -> throw new IllegalArgumentException("unknown $double tag: " + node);
      };
    }
    throw new IllegalArgumentException("not a number: " + node);
  }

  /** Bytes from a {"$bytes": hex} tag. */
  static byte[] bytesFrom(JsonNode node) {
    if (!node.isObject() || !node.has("$bytes")) throw new IllegalArgumentException("not {\"$bytes\": hex}: " + node);
    String hex = node.get("$bytes").asText();
    if (hex.length() % 2 != 0) throw new IllegalArgumentException("odd-length hex: " + hex);
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    return bytes;
  }
}
