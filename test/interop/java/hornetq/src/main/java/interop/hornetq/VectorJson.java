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
 * How the golden vectors (and the driver's answers) write values that JSON has no exact form for,
 * as tagged objects a TypeScript reviver turns back into values: bytes as {"$bytes": hex}, a long
 * outside JavaScript's safe-integer range as {"$bigint": decimal}, a non-finite or negative-zero
 * float as {"$double": "NaN" | "Infinity" | "-Infinity" | "-0"}. Every non-ASCII character is
 * written as a \\u escape, so lone surrogates survive the trip.
 */
final class VectorJson {
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

  private VectorJson() {}

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
}
