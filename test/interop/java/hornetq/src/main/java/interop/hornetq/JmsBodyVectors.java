package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import javax.jms.BytesMessage;
import javax.jms.MapMessage;
import javax.jms.StreamMessage;
import org.hornetq.api.core.HornetQBuffer;
import org.hornetq.api.core.HornetQBuffers;
import org.hornetq.api.core.client.ClientSession;
import org.hornetq.core.client.impl.ClientMessageImpl;
import org.hornetq.jms.client.HornetQBytesMessage;
import org.hornetq.jms.client.HornetQMapMessage;
import org.hornetq.jms.client.HornetQMessage;
import org.hornetq.jms.client.HornetQStreamMessage;
import org.hornetq.jms.client.HornetQTextMessage;

/**
 * JMS bodies as HornetQ's own JMS message classes lay them out in the core message body: text,
 * map, stream, bytes and the plain message. Each vector gives the JMS content, the core message
 * type byte and the body bytes (what sits between the body offsets of the message layout).
 */
final class JmsBodyVectors {
  private final ArrayNode vectors = TaggedJson.NODES.arrayNode();

  static ArrayNode all() throws Exception {
    JmsBodyVectors out = new JmsBodyVectors();
    out.plain();
    out.texts();
    out.maps();
    out.streams();
    out.bytes();
    return out.vectors;
  }

  private void plain() throws Exception {
    HornetQMessage message = create(HornetQMessage.class);
    add("Message", "plain message", TaggedJson.object(), message);
  }

  private void texts() throws Exception {
    String[] texts = {null, "", "hello", "d\u00e9j\u00e0 \ud83d\ude00 \u0000\u007f", Strings.pattern(5000)};
    for (String text : texts) {
      HornetQTextMessage message = create(HornetQTextMessage.class);
      message.setText(text);
      ObjectNode content = TaggedJson.object();
      content.set("text", TaggedJson.string(text));
      add("TextMessage", "text " + (text == null ? "null" : text.length() + " chars"), content, message);
    }
  }

  private void maps() throws Exception {
    map("empty map", create(HornetQMapMessage.class));
    HornetQMapMessage message = create(HornetQMapMessage.class);
    MapMessage map = message;
    map.setBoolean("boolean", true);
    map.setByte("byte", (byte) 127);
    map.setBytes("bytes", new byte[] {1, 2, 3});
    map.setShort("short", (short) 32767);
    map.setChar("char", '\ud83d');
    map.setInt("int", Integer.MAX_VALUE);
    map.setLong("long", Long.MIN_VALUE);
    map.setFloat("float", -2.25f);
    map.setDouble("double", Math.PI);
    map.setString("string", "\u00e9\u0000");
    map.setString("nullString", null);
    map.setObject("nullObject", null);
    map("map of every type", message);
  }

  /** A map's vector: its entries in the order HornetQ wrote them, read back from the one encoding. */
  private void map(String name, HornetQMapMessage message) throws Exception {
    byte[] body = encodeOnce(message);
    HornetQBuffer block = HornetQBuffers.wrappedBuffer(body);
    ArrayNode entries = TaggedJson.NODES.arrayNode();
    if (block.readByte() != 0) {
      int count = block.readInt();
      for (int i = 0; i < count; i++) {
        String key = block.readSimpleString().toString();
        skipTypedValue(block);
        entries.addArray().add(key).add(TypedValues.of(message.getObject(key)));
      }
    }
    if (block.readableBytes() != 0) throw new IllegalStateException(name + ": " + block.readableBytes() + " bytes after the map");
    ObjectNode content = TaggedJson.object();
    content.set("entries", entries);
    add("MapMessage", name, content, message.getCoreMessage().getType(), body);
  }

  private void streams() throws Exception {
    add("StreamMessage", "empty stream", streamContent(List.of()), create(HornetQStreamMessage.class));
    HornetQStreamMessage message = create(HornetQStreamMessage.class);
    StreamMessage stream = message;
    List<Object> written = new ArrayList<>();
    Object[] values = {true, false, (byte) -1, (short) 258, '\u20ac', 65_537, 1_700_000_000_000L, 0.5f, -1e300,
        "short", Strings.pattern(9), null, new byte[] {9, 8}, ""};
    for (Object value : values) {
      if (value instanceof byte[] bytes) stream.writeBytes(bytes);
      else stream.writeObject(value);
      written.add(value);
    }
    add("StreamMessage", "stream of every type, a null string among them", streamContent(written), message);
  }

  private void bytes() throws Exception {
    HornetQBytesMessage message = create(HornetQBytesMessage.class);
    BytesMessage bytes = message;
    ArrayNode operations = TaggedJson.NODES.arrayNode();
    bytes.writeBoolean(true);
    operations.addArray().add("writeBoolean").add(true);
    bytes.writeBoolean(false);
    operations.addArray().add("writeBoolean").add(false);
    bytes.writeByte((byte) -2);
    operations.addArray().add("writeByte").add(-2);
    bytes.writeShort((short) -3);
    operations.addArray().add("writeShort").add(-3);
    bytes.writeChar('\u00e9');
    operations.addArray().add("writeChar").add("\u00e9");
    bytes.writeInt(-4);
    operations.addArray().add("writeInt").add(-4);
    bytes.writeLong(Long.MAX_VALUE);
    operations.addArray().add("writeLong").add(TaggedJson.longValue(Long.MAX_VALUE));
    bytes.writeFloat(3.25f);
    operations.addArray().add("writeFloat").add(3.25);
    bytes.writeDouble(-0.0);
    operations.addArray().add("writeDouble").add(TaggedJson.doubleValue(-0.0));
    String utf = "\u0000\u007f \u00e9 \u20ac \ud83d\ude00";
    bytes.writeUTF(utf);
    operations.addArray().add("writeUTF").add(utf);
    bytes.writeBytes(new byte[] {0x10, 0x20});
    operations.addArray().add("writeBytes").add(TaggedJson.bytes(new byte[] {0x10, 0x20}));
    ObjectNode content = TaggedJson.object();
    content.set("operations", operations);
    add("BytesMessage", "bytes written with every BytesMessage write method", content, message);
  }

  private static ObjectNode streamContent(List<Object> values) {
    ArrayNode entries = TaggedJson.NODES.arrayNode();
    for (Object value : values) {
      // A null in a stream is written as a null STRING.
      ObjectNode typed = value == null ? TaggedJson.object().put("kind", TypedValues.STRING).putNull("value") : TypedValues.of(value);
      entries.add(typed);
    }
    ObjectNode content = TaggedJson.object();
    content.set("entries", entries);
    return content;
  }

  private static void skipTypedValue(HornetQBuffer body) {
    byte kind = body.readByte();
    switch (kind) {
      case TypedValues.NULL -> {}
      case TypedValues.BOOLEAN, TypedValues.BYTE -> body.readByte();
      case TypedValues.BYTES -> body.skipBytes(body.readInt());
      case TypedValues.SHORT, TypedValues.CHAR -> body.readShort();
      case TypedValues.INT, TypedValues.FLOAT -> body.readInt();
      case TypedValues.LONG, TypedValues.DOUBLE -> body.readLong();
      case TypedValues.STRING -> body.readSimpleString();
      default -> throw new IllegalStateException("unknown type byte " + kind + " in a map body");
    }
  }

  private void add(String jmsClass, String name, ObjectNode content, HornetQMessage message) throws Exception {
    add(jmsClass, name, content, message.getCoreMessage().getType(), encodeOnce(message));
  }

  private void add(String jmsClass, String name, ObjectNode content, byte messageType, byte[] body) {
    ObjectNode vector = vectors.addObject();
    vector.put("name", name);
    vector.put("jmsClass", jmsClass);
    vector.set("content", content);
    vector.put("messageType", messageType);
    vector.set("body", TaggedJson.bytes(body));
  }

  /**
   * What a send does, once: the JMS message writes its body (doBeforeSend), then the core message
   * is encoded. Encoding twice would not be what HornetQ sends (a re-encode keeps stale bytes).
   */
  private static byte[] encodeOnce(HornetQMessage message) throws Exception {
    message.doBeforeSend();
    return bodyBytes((ClientMessageImpl) message.getCoreMessage());
  }

  /** The body as it sits in the encoded message: from BODY_OFFSET up to the end-of-body position. */
  private static byte[] bodyBytes(ClientMessageImpl core) {
    HornetQBuffer encoded = core.getEncodedBuffer();
    byte[] body = new byte[core.getEndOfBodyPosition() - ClientMessageImpl.BODY_OFFSET];
    encoded.getBytes(ClientMessageImpl.BODY_OFFSET, body);
    return body;
  }

  /** A JMS message of HornetQ's class, on a session that only knows how to make core messages. */
  private static <T extends HornetQMessage> T create(Class<T> type) throws Exception {
    Constructor<T> constructor = type.getDeclaredConstructor(ClientSession.class);
    constructor.setAccessible(true);
    return constructor.newInstance(MESSAGE_FACTORY);
  }

  private static final ClientSession MESSAGE_FACTORY =
      (ClientSession)
          Proxy.newProxyInstance(
              JmsBodyVectors.class.getClassLoader(),
              new Class<?>[] {ClientSession.class},
              (proxy, method, args) -> {
                if (method.getName().equals("createMessage") && args.length == 5) {
                  // Fixed timestamp: the vectors must not change from one run to the next.
                  return new ClientMessageImpl((Byte) args[0], (Boolean) args[1], (Long) args[2], 1_700_000_000_123L, (Byte) args[4], 1500);
                }
                throw new UnsupportedOperationException("a vector session has no " + method.getName());
              });
}
