package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Serializable;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import javax.jms.BytesMessage;
import javax.jms.DeliveryMode;
import javax.jms.JMSContext;
import javax.jms.JMSException;
import javax.jms.MapMessage;
import javax.jms.Message;
import javax.jms.MessageEOFException;
import javax.jms.ObjectMessage;
import javax.jms.Session;
import javax.jms.StreamMessage;
import javax.jms.TextMessage;
import org.hornetq.api.core.SimpleString;
import org.hornetq.jms.client.HornetQMessage;

/**
 * JMS messages to and from the driver's JSON: {@code {class, headers, properties, body}} in, and
 * for a received message every JMS header beside them. Properties are {@code {name: [javaType,
 * value]}}; char and bytes properties (which JMS has no setter for, but the core message does) go
 * straight to the HornetQ core message, so a Java peer can send every core property type.
 */
final class JmsMessages {
  private JmsMessages() {}

  /** The message factory methods a Session and a JMSContext both have (JMS gives them no common type). */
  interface Creator {
    Message message() throws JMSException;

    TextMessage text(String text) throws JMSException;

    BytesMessage bytes() throws JMSException;

    MapMessage map() throws JMSException;

    StreamMessage stream() throws JMSException;

    ObjectMessage object(Serializable object) throws JMSException;
  }

  static Message build(Session session, JsonNode spec) throws JMSException {
    return build(
        new Creator() {
          public Message message() throws JMSException {
            return session.createMessage();
          }

          public TextMessage text(String text) throws JMSException {
            return session.createTextMessage(text);
          }

          public BytesMessage bytes() throws JMSException {
            return session.createBytesMessage();
          }

          public MapMessage map() throws JMSException {
            return session.createMapMessage();
          }

          public StreamMessage stream() throws JMSException {
            return session.createStreamMessage();
          }

          public ObjectMessage object(Serializable object) throws JMSException {
            return session.createObjectMessage(object);
          }
        },
        spec);
  }

  static Message build(JMSContext context, JsonNode spec) throws JMSException {
    return build(
        new Creator() {
          public Message message() {
            return context.createMessage();
          }

          public TextMessage text(String text) {
            return context.createTextMessage(text);
          }

          public BytesMessage bytes() {
            return context.createBytesMessage();
          }

          public MapMessage map() {
            return context.createMapMessage();
          }

          public StreamMessage stream() {
            return context.createStreamMessage();
          }

          public ObjectMessage object(Serializable object) {
            return context.createObjectMessage(object);
          }
        },
        spec);
  }

  static Message build(Creator creator, JsonNode spec) throws JMSException {
    String type = spec.path("class").asText("TextMessage");
    JsonNode body = spec.path("body");
    Message message =
        switch (type) {
          case "Message" -> creator.message();
          case "TextMessage" -> creator.text(body.isNull() || body.isMissingNode() ? null : body.asText());
          case "BytesMessage" -> bytes(creator, body);
          case "MapMessage" -> map(creator, body);
          case "StreamMessage" -> stream(creator, body);
          case "ObjectMessage" -> creator.object(body.isMissingNode() || body.isNull() ? null : (Serializable) body.asText());
          default -> throw new IllegalArgumentException("unknown message class '" + type + "'");
        };
    headers(message, spec.path("headers"));
    properties(message, spec.path("properties"));
    return message;
  }

  private static BytesMessage bytes(Creator creator, JsonNode body) throws JMSException {
    BytesMessage message = creator.bytes();
    if (!body.isMissingNode() && !body.isNull()) message.writeBytes(TaggedJson.bytesFrom(body));
    return message;
  }

  private static MapMessage map(Creator creator, JsonNode body) throws JMSException {
    MapMessage message = creator.map();
    for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      Object value = JmsValues.parse(entry.getValue());
      if (value instanceof byte[] bytes) message.setBytes(entry.getKey(), bytes);
      else if (value instanceof Character c) message.setChar(entry.getKey(), c);
      else message.setObject(entry.getKey(), value);
    }
    return message;
  }

  private static StreamMessage stream(Creator creator, JsonNode body) throws JMSException {
    StreamMessage message = creator.stream();
    for (JsonNode typed : body) {
      Object value = JmsValues.parse(typed);
      if (value instanceof byte[] bytes) message.writeBytes(bytes);
      else message.writeObject(value);
    }
    return message;
  }

  private static void headers(Message message, JsonNode headers) throws JMSException {
    if (headers.has("JMSCorrelationID")) message.setJMSCorrelationID(headers.get("JMSCorrelationID").asText());
    if (headers.has("JMSCorrelationIDAsBytes")) message.setJMSCorrelationIDAsBytes(TaggedJson.bytesFrom(headers.get("JMSCorrelationIDAsBytes")));
    if (headers.has("JMSType")) message.setJMSType(headers.get("JMSType").asText());
    if (headers.has("JMSReplyTo")) message.setJMSReplyTo(JmsDestinations.parse(headers.get("JMSReplyTo")));
  }

  private static void properties(Message message, JsonNode properties) throws JMSException {
    for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      Object value = JmsValues.parse(entry.getValue());
      SimpleString key = new SimpleString(entry.getKey());
      if (value instanceof Character c) ((HornetQMessage) message).getCoreMessage().putCharProperty(key, c);
      else if (value instanceof byte[] bytes) ((HornetQMessage) message).getCoreMessage().putBytesProperty(key, bytes);
      else message.setObjectProperty(entry.getKey(), value);
    }
  }

  static ObjectNode describe(Message message) throws JMSException {
    ObjectNode out = TaggedJson.object();
    out.put("class", className(message));
    out.put("JMSMessageID", message.getJMSMessageID());
    out.set("JMSDestination", JmsDestinations.describe(message.getJMSDestination()));
    out.set("JMSReplyTo", JmsDestinations.describe(message.getJMSReplyTo()));
    out.put("JMSType", message.getJMSType());
    out.put("JMSCorrelationID", message.getJMSCorrelationID());
    out.put("JMSDeliveryMode", message.getJMSDeliveryMode() == DeliveryMode.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT");
    out.put("JMSPriority", message.getJMSPriority());
    out.set("JMSExpiration", TaggedJson.longValue(message.getJMSExpiration()));
    out.set("JMSTimestamp", TaggedJson.longValue(message.getJMSTimestamp()));
    // JMS 2.0; HornetQ reads it from _HQ_SCHED_DELIVERY, 0 when the message has none.
    out.set("JMSDeliveryTime", TaggedJson.longValue(message.getJMSDeliveryTime()));
    out.put("JMSRedelivered", message.getJMSRedelivered());
    ObjectNode properties = out.putObject("properties");
    for (Object name : Collections.list(message.getPropertyNames())) {
      properties.set((String) name, JmsValues.describe(message.getObjectProperty((String) name)));
    }
    out.set("body", body(message));
    return out;
  }

  private static String className(Message message) {
    if (message instanceof TextMessage) return "TextMessage";
    if (message instanceof BytesMessage) return "BytesMessage";
    if (message instanceof MapMessage) return "MapMessage";
    if (message instanceof StreamMessage) return "StreamMessage";
    if (message instanceof ObjectMessage) return "ObjectMessage";
    return "Message";
  }

  private static JsonNode body(Message message) throws JMSException {
    if (message instanceof TextMessage text) return TaggedJson.string(text.getText());
    if (message instanceof BytesMessage bytes) {
      byte[] all = new byte[(int) bytes.getBodyLength()];
      bytes.readBytes(all);
      return TaggedJson.bytes(all);
    }
    if (message instanceof MapMessage map) {
      ObjectNode entries = TaggedJson.object();
      for (Object name : Collections.list(map.getMapNames())) entries.set((String) name, JmsValues.describe(map.getObject((String) name)));
      return entries;
    }
    if (message instanceof StreamMessage stream) return streamBody(stream);
    if (message instanceof ObjectMessage object) return objectBody(object);
    return TaggedJson.NODES.nullNode();
  }

  private static ArrayNode streamBody(StreamMessage stream) throws JMSException {
    ArrayNode entries = TaggedJson.NODES.arrayNode();
    while (true) {
      try {
        entries.add(JmsValues.describe(stream.readObject()));
      } catch (MessageEOFException end) {
        return entries;
      }
    }
  }

  /** Java serialization cannot come from a Node peer: say what happened instead of failing the receive. */
  private static JsonNode objectBody(ObjectMessage object) {
    try {
      Serializable value = object.getObject();
      if (value == null) return TaggedJson.NODES.nullNode();
      return TaggedJson.object().put("javaClass", value.getClass().getName()).put("value", value.toString());
    } catch (JMSException e) {
      return TaggedJson.object().set("error", DriverErrors.describe(e));
    }
  }
}
