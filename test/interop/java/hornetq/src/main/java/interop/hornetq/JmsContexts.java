package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import javax.jms.CompletionListener;
import javax.jms.Destination;
import javax.jms.JMSConsumer;
import javax.jms.JMSContext;
import javax.jms.JMSProducer;
import javax.jms.Message;
import javax.jms.Topic;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * The JMS 2.0 simplified API of HornetQ 2.4.7's client, for the driver: JMSContexts, their
 * JMSProducers (delivery delay, CompletionListener) and JMSConsumers (receive, receiveBody, shared
 * and durable subscriptions), by handle. JmsDriver hands it the commands whose op starts with
 * "context" or names a JMSConsumer; their fields are listed in test/interop/support/java-jms-context.ts.
 */
final class JmsContexts {
  private final Map<String, JMSContext> contexts = new HashMap<>();
  private final Map<String, JMSConsumer> consumers = new HashMap<>();
  private final Function<String, String> newHandle;
  private final Completions completions;

  JmsContexts(Function<String, String> newHandle, Completions completions) {
    this.newHandle = newHandle;
    this.completions = completions;
  }

  /** Runs `op` if it is one of these; false if it is not. */
  boolean run(String op, JsonNode c, ObjectNode answer) throws Exception {
    switch (op) {
      case "contextFrom" -> answer.put("context", register(context(c).createContext(JmsDriver.ackMode(text(c, "sessionMode")))));
      case "contextSend" -> send(c, answer);
      case "contextCreateConsumer" -> answer.put("consumer", createConsumer(c));
      case "contextCreateSharedConsumer" -> answer.put("consumer", createSharedConsumer(c, false));
      case "contextCreateSharedDurableConsumer" -> answer.put("consumer", createSharedConsumer(c, true));
      case "contextUnsubscribe" -> context(c).unsubscribe(text(c, "name"));
      case "contextCommit" -> context(c).commit();
      case "contextRollback" -> context(c).rollback();
      case "contextAcknowledge" -> context(c).acknowledge();
      case "contextReceive" -> receive(c, answer);
      case "contextReceiveBody" -> answer.set("body", receiveBody(c));
      case "contextCloseConsumer" -> closeConsumer(c);
      case "contextClose" -> closeContext(c);
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * A context of its own connection made by `factory`, in `sessionMode` (JMSContext's constants,
   * by name), with the client id if the command has one.
   */
  String create(HornetQConnectionFactory factory, JsonNode c) {
    int mode = JmsDriver.ackMode(c.path("sessionMode").asText("AUTO_ACKNOWLEDGE"));
    JMSContext context =
        c.has("username") ? factory.createContext(text(c, "username"), c.path("password").asText(null), mode) : factory.createContext(mode);
    try {
      if (c.has("clientId")) context.setClientID(text(c, "clientId"));
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
    return register(context);
  }

  private String register(JMSContext context) {
    String id = newHandle.apply("x");
    contexts.put(id, context);
    return id;
  }

  /**
   * Sends `message` `count` times through one JMSProducer of the context, with the producer's
   * delivery delay and (with `async`) a CompletionListener whose handle the answer gives as
   * `listener`; each copy carries its index as the int property `sequenceProperty` if given.
   */
  private void send(JsonNode c, ObjectNode answer) throws Exception {
    JMSContext context = context(c);
    JMSProducer producer = context.createProducer();
    SendSettings settings = SendSettings.of(c);
    producer.setDeliveryMode(settings.deliveryMode()).setPriority(settings.priority()).setTimeToLive(settings.timeToLive());
    producer.setDeliveryDelay(settings.deliveryDelay());
    if (c.path("async").asBoolean(false)) {
      String listener = newHandle.apply("l");
      CompletionListener completion = completions.create(listener);
      producer.setAsync(completion);
      answer.put("listener", listener);
    }
    Destination destination = JmsDriver.destination(c.path("destination"));
    ArrayNode sent = answer.putArray("sent");
    for (int i = 0; i < settings.count(); i++) {
      Message message = JmsMessages.build(context, c.path("message"));
      if (settings.sequenceProperty() != null) message.setIntProperty(settings.sequenceProperty(), i);
      long started = System.nanoTime();
      producer.send(destination, message);
      sent.add(SendSettings.describeSent(message, (System.nanoTime() - started) / 1e6));
    }
  }

  private String createConsumer(JsonNode c) {
    JMSConsumer consumer =
        context(c).createConsumer(JmsDriver.destination(c.path("destination")), c.path("selector").asText(null), c.path("noLocal").asBoolean(false));
    return registerConsumer(consumer);
  }

  private String createSharedConsumer(JsonNode c, boolean durable) {
    JMSContext context = context(c);
    Topic topic = (Topic) JmsDriver.destination(c.path("destination"));
    String selector = c.path("selector").asText(null);
    JMSConsumer consumer =
        durable
            ? context.createSharedDurableConsumer(topic, text(c, "name"), selector)
            : context.createSharedConsumer(topic, text(c, "name"), selector);
    return registerConsumer(consumer);
  }

  private String registerConsumer(JMSConsumer consumer) {
    String id = newHandle.apply("j");
    consumers.put(id, consumer);
    return id;
  }

  /** receive(timeout) (receiveNoWait for a negative one), `count` times if given, as `messages`; else one as `message`. */
  private void receive(JsonNode c, ObjectNode answer) throws Exception {
    JMSConsumer consumer = consumer(c);
    long timeout = c.path("timeout").asLong(0);
    if (!c.has("count")) {
      Message message = receiveOne(consumer, timeout);
      answer.set("message", message == null ? TaggedJson.NODES.nullNode() : JmsMessages.describe(message));
      return;
    }
    ArrayNode messages = answer.putArray("messages");
    for (int i = c.path("count").asInt(); i > 0; i--) {
      Message message = receiveOne(consumer, timeout);
      if (message == null) break;
      messages.add(JmsMessages.describe(message));
    }
  }

  private static Message receiveOne(JMSConsumer consumer, long timeout) {
    return timeout < 0 ? consumer.receiveNoWait() : consumer.receive(timeout);
  }

  /**
   * receiveBody(type, timeout), `type` one of String, bytes, Map (the test names the Java class;
   * nothing from a peer does): the body as the driver's JSON, null when nothing came.
   */
  private JsonNode receiveBody(JsonNode c) {
    JMSConsumer consumer = consumer(c);
    long timeout = c.path("timeout").asLong(0);
    return switch (text(c, "bodyType")) {
      case "String" -> TaggedJson.string(consumer.receiveBody(String.class, timeout));
      case "bytes" -> {
        byte[] body = consumer.receiveBody(byte[].class, timeout);
        yield body == null ? TaggedJson.NODES.nullNode() : TaggedJson.bytes(body);
      }
      case "Map" -> {
        Map<?, ?> body = consumer.receiveBody(Map.class, timeout);
        if (body == null) yield TaggedJson.NODES.nullNode();
        ObjectNode entries = TaggedJson.object();
        body.forEach((name, value) -> entries.set(String.valueOf(name), JmsValues.describe(value)));
        yield entries;
      }
      default -> throw new IllegalArgumentException("unknown bodyType '" + c.path("bodyType").asText() + "' (String, bytes, Map)");
    };
  }

  private void closeConsumer(JsonNode c) {
    consumer(c).close();
    consumers.remove(text(c, "consumer"));
  }

  private void closeContext(JsonNode c) {
    context(c).close();
    contexts.remove(text(c, "context"));
  }

  /** Closes every context (their connections close with the last context on each); failures are only reported. */
  void closeAll() {
    for (JMSContext context : contexts.values()) {
      try {
        context.close();
      } catch (RuntimeException e) {
        System.err.println("closing a JMSContext failed: " + e);
      }
    }
    contexts.clear();
    consumers.clear();
  }

  private JMSContext context(JsonNode c) {
    return lookup(contexts, text(c, "context"), "JMSContext");
  }

  private JMSConsumer consumer(JsonNode c) {
    return lookup(consumers, text(c, "consumer"), "JMSConsumer");
  }

  private static <T> T lookup(Map<String, T> handles, String id, String what) {
    T found = handles.get(id);
    if (found == null) throw new IllegalArgumentException("no " + what + " '" + id + "'");
    return found;
  }

  private static String text(JsonNode c, String field) {
    JsonNode value = c.get(field);
    if (value == null || !value.isTextual()) throw new IllegalArgumentException("the command needs a string '" + field + "'");
    return value.asText();
  }
}
