package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hornetq.api.core.SimpleString;
import org.hornetq.core.client.impl.ClientMessageImpl;
import org.hornetq.core.message.impl.MessageImpl;
import org.hornetq.core.server.impl.ServerMessageImpl;
import org.hornetq.utils.TypedProperties;
import org.hornetq.utils.UUID;

/**
 * One core message described twice from the same values: as HornetQ's ClientMessageImpl (which
 * then encodes it) and as our CoreMessage's fields (src/core/protocol/core-message.ts), so the
 * TypeScript codec can build the same message and compare bytes.
 */
final class MessageSpec {
  long messageId;
  String address = "jms.queue.vectors";
  byte type;
  boolean durable;
  long expiration;
  long timestamp = 1_700_000_000_123L;
  byte priority = 4;
  /** 16 raw bytes, or null for a message without a user id. */
  byte[] userId;
  final Map<String, Object> properties = new LinkedHashMap<>();
  byte[] body = new byte[0];

  /**
   * A producer's message (ClientMessageImpl, id 0) or, with an id, the server's (ServerMessageImpl,
   * as HornetQ delivers it): the two share MessageImpl's encoding.
   */
  MessageImpl build() {
    MessageImpl message;
    if (messageId == 0) {
      message = new ClientMessageImpl(type, durable, expiration, timestamp, priority, 1500);
    } else {
      ServerMessageImpl delivered = new ServerMessageImpl(messageId, 1500);
      delivered.setType(type);
      delivered.setDurable(durable);
      delivered.setExpiration(expiration);
      delivered.setTimestamp(timestamp);
      delivered.setPriority(priority);
      message = delivered;
    }
    message.setAddress(new SimpleString(address));
    if (userId != null) message.setUserID(new UUID(UUID.TYPE_TIME_BASED, userId.clone()));
    for (Map.Entry<String, Object> property : properties.entrySet()) put(message, property.getKey(), property.getValue());
    message.getBodyBuffer().writeBytes(body);
    return message;
  }

  /** Our CoreMessage's fields; properties in the order HornetQ wrote them (its HashMap's order). */
  ObjectNode describe(MessageImpl built) {
    ObjectNode fields = TaggedJson.object();
    fields.set("messageId", TaggedJson.longValue(messageId));
    fields.put("address", address);
    fields.put("type", type);
    fields.put("durable", durable);
    fields.set("expiration", TaggedJson.longValue(expiration));
    fields.set("timestamp", TaggedJson.longValue(timestamp));
    fields.put("priority", priority);
    fields.set("userId", userId == null ? TaggedJson.NODES.nullNode() : TaggedJson.NODES.textNode(new UUID(UUID.TYPE_TIME_BASED, userId.clone()).toString()));
    ArrayNode list = fields.putArray("properties");
    TypedProperties wireOrder = built.getTypedProperties();
    for (SimpleString name : wireOrder.getPropertyNames()) {
      list.addArray().add(name.toString()).add(TypedValues.of(wireOrder.getProperty(name)));
    }
    fields.set("body", TaggedJson.bytes(body));
    return fields;
  }

  private static void put(MessageImpl message, String name, Object value) {
    SimpleString key = new SimpleString(name);
    if (value == null) message.putObjectProperty(key, null);
    else if (value instanceof Boolean b) message.putBooleanProperty(key, b);
    else if (value instanceof Byte b) message.putByteProperty(key, b);
    else if (value instanceof byte[] bytes) message.putBytesProperty(key, bytes);
    else if (value instanceof Short s) message.putShortProperty(key, s);
    else if (value instanceof Integer i) message.putIntProperty(key, i);
    else if (value instanceof Long l) message.putLongProperty(key, l);
    else if (value instanceof Float f) message.putFloatProperty(key, f);
    else if (value instanceof Double d) message.putDoubleProperty(key, d);
    else if (value instanceof String s) message.putStringProperty(key, new SimpleString(s));
    else if (value instanceof Character c) message.putCharProperty(key, c);
    else throw new IllegalArgumentException("no property type for " + value.getClass().getName());
  }
}
