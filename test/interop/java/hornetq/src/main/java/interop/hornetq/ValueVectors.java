package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.function.BiConsumer;
import org.hornetq.api.core.HornetQBuffer;
import org.hornetq.api.core.HornetQBuffers;
import org.hornetq.api.core.SimpleString;

/**
 * Single values as HornetQBuffer writes them. Each vector names the BufferWriter method of ours
 * that must write the same bytes: writeSimpleString, writeNullableSimpleString, writeHqString
 * (HornetQ's writeString), writeNullableHqString, writeUTF, writeBoolean.
 */
final class ValueVectors {
  private static final int[] HQ_STRING_LENGTHS = {0, 1, 8, 9, 4094, 4095, 5000};

  private final ArrayNode vectors = TaggedJson.NODES.arrayNode();

  static ArrayNode all() {
    ValueVectors out = new ValueVectors();
    out.simpleStrings();
    out.hqStrings();
    out.utf();
    out.booleans();
    return out.vectors;
  }

  private void simpleStrings() {
    for (String value : new String[] {"", "jms.queue.q", "d\u00e9j\u00e0 \ud83d\ude00", "\u0000\u007f", "\udc00 lone low"}) {
      add("writeSimpleString", value, (buffer, text) -> buffer.writeSimpleString(new SimpleString(text)));
    }
    add("writeSimpleString", Strings.pattern(4095), (buffer, text) -> buffer.writeSimpleString(new SimpleString(text)));
    for (String value : new String[] {null, "", "filter = 'x'"}) {
      add("writeNullableSimpleString", value,
          (buffer, text) -> buffer.writeNullableSimpleString(text == null ? null : new SimpleString(text)));
    }
  }

  private void hqStrings() {
    for (int length : HQ_STRING_LENGTHS) add("writeHqString", Strings.pattern(length), HornetQBuffer::writeString);
    add("writeHqString", "12345678", HornetQBuffer::writeString);
    add("writeHqString", "123456789", HornetQBuffer::writeString);
    add("writeHqString", "\ud800", HornetQBuffer::writeString);
    for (String value : new String[] {null, "", "guest", Strings.pattern(9), Strings.pattern(4095)}) {
      add("writeNullableHqString", value, HornetQBuffer::writeNullableString);
    }
  }

  private void utf() {
    for (String value : new String[] {"", "plain ascii", "\u0000", "\u007f", "\u0080\u07ff", "\u0800\uffff",
        "\ud83d\ude00", "\ud800", "\udfff x", Strings.pattern(4094), Strings.pattern(4095)}) {
      add("writeUTF", value, HornetQBuffer::writeUTF);
    }
  }

  private void booleans() {
    add("writeBoolean", true, HornetQBuffer::writeBoolean);
    add("writeBoolean", false, HornetQBuffer::writeBoolean);
  }

  private <T> void add(String writer, T value, BiConsumer<HornetQBuffer, T> write) {
    HornetQBuffer buffer = HornetQBuffers.dynamicBuffer(64);
    write.accept(buffer, value);
    var vector = vectors.addObject();
    vector.put("write", writer);
    if (value instanceof Boolean b) vector.put("value", b);
    else vector.set("value", TaggedJson.string((String) value));
    vector.put("hex", TaggedJson.hex(buffer, 0));
  }
}
