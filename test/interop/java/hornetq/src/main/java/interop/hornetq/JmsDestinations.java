package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import javax.jms.Destination;
import org.hornetq.jms.client.HornetQDestination;

/**
 * A destination as {@code {type: queue | topic | tempQueue | tempTopic, name}}: HornetQ's address
 * is the prefix of the type plus the name, which is also how a Node peer names it.
 */
final class JmsDestinations {
  private JmsDestinations() {}

  static Destination parse(JsonNode node) {
    if (node == null || node.isNull()) return null;
    String name = required(node, "name");
    String prefix =
        switch (required(node, "type")) {
          case "queue" -> HornetQDestination.JMS_QUEUE_ADDRESS_PREFIX;
          case "topic" -> HornetQDestination.JMS_TOPIC_ADDRESS_PREFIX;
          case "tempQueue" -> HornetQDestination.JMS_TEMP_QUEUE_ADDRESS_PREFIX;
          case "tempTopic" -> HornetQDestination.JMS_TEMP_TOPIC_ADDRESS_PREFIX;
          default -> throw new IllegalArgumentException("unknown destination type in " + node);
        };
    return HornetQDestination.fromAddress(prefix + name);
  }

  static JsonNode describe(Destination destination) {
    if (destination == null) return TaggedJson.NODES.nullNode();
    HornetQDestination hornetq = (HornetQDestination) destination;
    String type;
    if (hornetq.isQueue()) type = hornetq.isTemporary() ? "tempQueue" : "queue";
    else type = hornetq.isTemporary() ? "tempTopic" : "topic";
    ObjectNode out = TaggedJson.object().put("type", type).put("name", hornetq.getName());
    return out.put("address", hornetq.getAddress());
  }

  private static String required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) throw new IllegalArgumentException("destination needs a string '" + field + "': " + node);
    return value.asText();
  }
}
