package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hornetq.api.core.SimpleString;

/**
 * A Java property value as our TypedValue ({kind, value}, src/core/protocol/typed-properties.ts):
 * the kind is HornetQ's DataConstants type byte, which is what TypedProperties writes on the wire.
 */
final class TypedValues {
  static final int NULL = 0;
  static final int BOOLEAN = 2;
  static final int BYTE = 3;
  static final int BYTES = 4;
  static final int SHORT = 5;
  static final int INT = 6;
  static final int LONG = 7;
  static final int FLOAT = 8;
  static final int DOUBLE = 9;
  static final int STRING = 10;
  static final int CHAR = 11;

  private TypedValues() {}

  static ObjectNode of(Object value) {
    ObjectNode typed = TaggedJson.object();
    typed.put("kind", kindOf(value));
    typed.set("value", valueOf(value));
    return typed;
  }

  static int kindOf(Object value) {
    if (value == null) return NULL;
    if (value instanceof Boolean) return BOOLEAN;
    if (value instanceof Byte) return BYTE;
    if (value instanceof byte[]) return BYTES;
    if (value instanceof Short) return SHORT;
    if (value instanceof Integer) return INT;
    if (value instanceof Long) return LONG;
    if (value instanceof Float) return FLOAT;
    if (value instanceof Double) return DOUBLE;
    if (value instanceof SimpleString || value instanceof String) return STRING;
    if (value instanceof Character) return CHAR;
    throw new IllegalArgumentException("no property kind for " + value.getClass().getName());
  }

  private static JsonNode valueOf(Object value) {
    if (value == null) return TaggedJson.NODES.nullNode();
    if (value instanceof Boolean b) return TaggedJson.NODES.booleanNode(b);
    if (value instanceof byte[] bytes) return TaggedJson.bytes(bytes);
    if (value instanceof Long l) return TaggedJson.longValue(l);
    if (value instanceof Float f) return TaggedJson.doubleValue(f.doubleValue());
    if (value instanceof Double d) return TaggedJson.doubleValue(d);
    if (value instanceof Number n) return TaggedJson.NODES.numberNode(n.intValue());
    return TaggedJson.NODES.textNode(value.toString());
  }
}
