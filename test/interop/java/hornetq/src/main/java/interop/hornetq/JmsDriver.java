package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import javax.jms.CompletionListener;
import javax.jms.Connection;
import javax.jms.Destination;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.QueueBrowser;
import javax.jms.Session;
import javax.jms.TemporaryQueue;
import javax.jms.TemporaryTopic;
import javax.jms.Topic;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.core.client.TopologyMember;
import org.hornetq.api.jms.HornetQJMSClient;
import org.hornetq.api.jms.JMSFactoryType;
import org.hornetq.core.client.impl.ServerLocatorInternal;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.jms.client.HornetQConnection;
import org.hornetq.jms.client.HornetQConnectionFactory;
import org.hornetq.utils.VersionLoader;

/**
 * HornetQ 2.4.7's JMS client, driven by one JSON command per stdin line ({@code {"id": 1, "op":
 * "connect", ...}}); one answer line per command ({@code {"id": 1, "ok": true, ...}} or {@code
 * {"id": 1, "ok": false, "error": {class, message, cause}}}), plus event lines without an id
 * (ready, exception, failover). Commands run one at a time, in order. The operations and their
 * fields are listed in test/interop/support/jms-driver.ts; JMS 2.0's JMSContext ones (JmsContexts)
 * in test/interop/support/java-jms-context.ts. Exits when stdin closes.
 */
public final class JmsDriver {
  private final PrintStream out;
  private final Map<String, Connection> connections = new HashMap<>();
  /** The factory each connection was made by: its locator holds the topology the server announced. */
  private final Map<String, HornetQConnectionFactory> factories = new HashMap<>();
  private final Map<String, Session> sessions = new HashMap<>();
  private final Map<String, MessageProducer> producers = new HashMap<>();
  private final Map<String, Message> lastReceived = new HashMap<>();
  private final Map<String, MessageConsumer> consumers = new HashMap<>();
  /** Which session each consumer belongs to: an acknowledge names the session. */
  private final Map<String, String> consumerSessions = new HashMap<>();
  private final Map<String, Destination> temporaries = new HashMap<>();
  private final Completions completions = new Completions();
  private final JmsContexts contexts = new JmsContexts(this::newHandle, completions);
  private int nextHandle = 1;

  private JmsDriver(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] argv) throws IOException {
    // Answers own stdout; anything else that prints (HornetQ's logging, Netty) goes to stderr.
    PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    JmsDriver driver = new JmsDriver(answers);
    driver.event(TaggedJson.object().put("event", "ready").put("hornetq", VersionLoader.getVersion().getFullVersion()));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!line.isBlank() && !driver.handle(line)) break;
    }
    driver.closeAll();
    System.exit(0);
  }

  /** Runs one command line and answers it; false after "exit". */
  private boolean handle(String line) {
    JsonNode command;
    try {
      command = TaggedJson.LINES.readTree(line);
    } catch (IOException e) {
      answer(TaggedJson.object().put("ok", false).set("error", DriverErrors.describe(e)));
      return true;
    }
    ObjectNode answer = TaggedJson.object();
    answer.set("id", command.path("id"));
    String op = command.path("op").asText();
    try {
      run(op, command, answer);
      answer.put("ok", true);
    } catch (Exception | LinkageError e) {
      answer.put("ok", false).set("error", DriverErrors.describe(e));
    }
    answer(answer);
    return !op.equals("exit");
  }

  private void run(String op, JsonNode c, ObjectNode answer) throws Exception {
    switch (op) {
      case "connect" -> answer.put("connection", connect(c));
      case "start" -> connection(c).start();
      case "stop" -> connection(c).stop();
      case "createSession" -> answer.put("session", createSession(c));
      case "send" -> send(c, answer);
      case "createConsumer" -> answer.put("consumer", createConsumer(c));
      case "createDurableSubscriber" -> answer.put("consumer", createDurableSubscriber(c));
      case "createSharedConsumer" -> answer.put("consumer", createSharedConsumer(c, false));
      case "createSharedDurableConsumer" -> answer.put("consumer", createSharedConsumer(c, true));
      case "createContext" -> answer.put("context", contexts.create(factory(c), c));
      case "completions" -> answer.setAll(completions.await(text(c, "listener"), c.path("count").asInt(), c.path("timeout").asLong(0)));
      case "unsubscribe" -> session(c).unsubscribe(text(c, "name"));
      case "receive" -> receive(c, answer, c.path("timeout").asLong(0));
      case "receiveNoWait" -> receive(c, answer, -1);
      case "closeConsumer" -> closeConsumer(c);
      case "browse" -> answer.set("messages", browse(c));
      case "commit" -> session(c).commit();
      case "rollback" -> session(c).rollback();
      case "recover" -> session(c).recover();
      case "acknowledge" -> acknowledge(c);
      case "createTemporaryQueue" -> answer.set("destination", temporary(session(c).createTemporaryQueue()));
      case "createTemporaryTopic" -> answer.set("destination", temporary(session(c).createTemporaryTopic()));
      case "deleteTemporary" -> deleteTemporary(c);
      case "closeSession" -> closeSession(text(c, "session"));
      case "closeConnection" -> closeConnection(text(c, "connection"));
      case "topology" -> answer.set("members", topology(c));
      case "exit" -> closeAll();
      default -> {
        if (!contexts.run(op, c, answer)) throw new IllegalArgumentException("unknown op '" + op + "'");
      }
    }
  }

  private String connect(JsonNode c) throws Exception {
    HornetQConnectionFactory factory = factory(c);
    Connection connection =
        c.has("username") ? factory.createConnection(text(c, "username"), c.path("password").asText(null)) : factory.createConnection();
    String id = newHandle("c");
    connections.put(id, connection);
    factories.put(id, factory);
    if (c.has("clientId")) connection.setClientID(text(c, "clientId"));
    connection.setExceptionListener(
        e -> event(TaggedJson.object().put("event", "exception").put("connection", id).set("error", DriverErrors.describe(e))));
    ((HornetQConnection) connection)
        .setFailoverListener(type -> event(TaggedJson.object().put("event", "failover").put("connection", id).put("type", type.name())));
    return id;
  }

  /** A connection factory for the command's host, port, transport params, ha and factory settings. */
  private static HornetQConnectionFactory factory(JsonNode c) throws ReflectiveOperationException {
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, c.path("host").asText("127.0.0.1"));
    params.put(TransportConstants.PORT_PROP_NAME, c.path("port").asInt());
    // As strings, the way hornetq-jms.xml gives them: HornetQ's ConfigurationHelper converts them.
    c.path("transport").fields().forEachRemaining(param -> params.put(param.getKey(), param.getValue().asText()));
    TransportConfiguration connector = new TransportConfiguration(NettyConnectorFactory.class.getName(), params);
    // ha is fixed when the factory is made (HornetQ has no setter for it): true follows a failover to the backup.
    HornetQConnectionFactory factory =
        c.path("ha").asBoolean(false)
            ? HornetQJMSClient.createConnectionFactoryWithHA(JMSFactoryType.CF, connector)
            : HornetQJMSClient.createConnectionFactoryWithoutHA(JMSFactoryType.CF, connector);
    FactorySettings.apply(factory, c.path("factory"));
    return factory;
  }

  /**
   * The members of the topology the connection's locator holds (what the server announced on
   * CLUSTER_TOPOLOGY_V2), each with its node id and its live's and backup's host and port.
   */
  private ArrayNode topology(JsonNode c) {
    HornetQConnectionFactory factory = lookup(factories, text(c, "connection"), "connection");
    ArrayNode members = TaggedJson.NODES.arrayNode();
    for (TopologyMember member : ((ServerLocatorInternal) factory.getServerLocator()).getTopology().getMembers()) {
      ObjectNode entry = TaggedJson.object().put("nodeId", member.getNodeId());
      entry.set("live", endpoint(member.getLive()));
      entry.set("backup", endpoint(member.getBackup()));
      members.add(entry);
    }
    return members;
  }

  private static JsonNode endpoint(TransportConfiguration connector) {
    if (connector == null) return TaggedJson.NODES.nullNode();
    Object host = connector.getParams().get(TransportConstants.HOST_PROP_NAME);
    Object port = connector.getParams().get(TransportConstants.PORT_PROP_NAME);
    return TaggedJson.object().put("host", String.valueOf(host)).put("port", String.valueOf(port));
  }

  private String createSession(JsonNode c) throws Exception {
    boolean transacted = c.path("transacted").asBoolean(false);
    Session session = connection(c).createSession(transacted, ackMode(c.path("ackMode").asText("AUTO_ACKNOWLEDGE")));
    String id = newHandle("s");
    sessions.put(id, session);
    return id;
  }

  /** A Session's acknowledge mode (a JMSContext's session mode: the same constants) by name. */
  static int ackMode(String name) {
    return switch (name) {
      case "AUTO_ACKNOWLEDGE" -> Session.AUTO_ACKNOWLEDGE;
      case "CLIENT_ACKNOWLEDGE" -> Session.CLIENT_ACKNOWLEDGE;
      case "DUPS_OK_ACKNOWLEDGE" -> Session.DUPS_OK_ACKNOWLEDGE;
      case "SESSION_TRANSACTED" -> Session.SESSION_TRANSACTED;
      default -> throw new IllegalArgumentException("unknown ackMode '" + name + "'");
    };
  }

  /**
   * Sends `message` `count` times (default 1) through the session's one anonymous producer; with
   * `sequenceProperty`, each copy carries its index as that int property. Each answer says how
   * long its producer.send took (`sendMs`: a durable send returns on the broker's answer). The
   * producer has the command's `deliveryDelay` (0 if none); with `async`, each send goes with one
   * CompletionListener, whose handle the answer gives as `listener`.
   */
  private void send(JsonNode c, ObjectNode answer) throws Exception {
    String sessionId = text(c, "session");
    Session session = session(c);
    MessageProducer producer = producers.get(sessionId);
    if (producer == null) {
      producer = session.createProducer(null);
      producers.put(sessionId, producer);
    }
    producer.setDisableMessageID(c.path("disableMessageID").asBoolean(false));
    producer.setDisableMessageTimestamp(c.path("disableMessageTimestamp").asBoolean(false));
    SendSettings settings = SendSettings.of(c);
    producer.setDeliveryDelay(settings.deliveryDelay());
    CompletionListener completion = null;
    if (c.path("async").asBoolean(false)) {
      String listener = newHandle("l");
      completion = completions.create(listener);
      answer.put("listener", listener);
    }
    Destination destination = destination(c.path("destination"));
    ArrayNode sent = answer.putArray("sent");
    for (int i = 0; i < settings.count(); i++) {
      Message message = JmsMessages.build(session, c.path("message"));
      if (settings.sequenceProperty() != null) message.setIntProperty(settings.sequenceProperty(), i);
      long sendStarted = System.nanoTime();
      if (completion == null) {
        producer.send(destination, message, settings.deliveryMode(), settings.priority(), settings.timeToLive());
      } else {
        producer.send(destination, message, settings.deliveryMode(), settings.priority(), settings.timeToLive(), completion);
      }
      sent.add(SendSettings.describeSent(message, (System.nanoTime() - sendStarted) / 1e6));
    }
  }

  private String createConsumer(JsonNode c) throws Exception {
    Session session = session(c);
    MessageConsumer consumer =
        session.createConsumer(destination(c.path("destination")), c.path("selector").asText(null), c.path("noLocal").asBoolean(false));
    return register(text(c, "session"), consumer);
  }

  private String createDurableSubscriber(JsonNode c) throws Exception {
    Session session = session(c);
    Topic topic = (Topic) destination(c.path("destination"));
    MessageConsumer consumer =
        session.createDurableSubscriber(topic, text(c, "name"), c.path("selector").asText(null), c.path("noLocal").asBoolean(false));
    return register(text(c, "session"), consumer);
  }

  /** JMS 2.0: a shared subscription, durable or not (HornetQ 2.4: CREATE_SHARED_QUEUE). */
  private String createSharedConsumer(JsonNode c, boolean durable) throws Exception {
    Session session = session(c);
    Topic topic = (Topic) destination(c.path("destination"));
    String selector = c.path("selector").asText(null);
    MessageConsumer consumer =
        durable
            ? session.createSharedDurableConsumer(topic, text(c, "name"), selector)
            : session.createSharedConsumer(topic, text(c, "name"), selector);
    return register(text(c, "session"), consumer);
  }

  private String register(String sessionId, MessageConsumer consumer) {
    String id = newHandle("k");
    consumers.put(id, consumer);
    consumerSessions.put(id, sessionId);
    return id;
  }

  /**
   * receive(timeout), or receiveNoWait for a negative timeout; with `count`, up to that many
   * messages, each waited for with the same timeout, answered as `messages`.
   */
  private void receive(JsonNode c, ObjectNode answer, long timeout) throws Exception {
    String consumerId = text(c, "consumer");
    MessageConsumer consumer = consumer(consumerId);
    if (!c.has("count")) {
      Message message = receiveOne(consumerId, consumer, timeout);
      answer.set("message", message == null ? TaggedJson.NODES.nullNode() : JmsMessages.describe(message));
      return;
    }
    ArrayNode messages = answer.putArray("messages");
    for (int i = c.path("count").asInt(); i > 0; i--) {
      Message message = receiveOne(consumerId, consumer, timeout);
      if (message == null) break;
      messages.add(JmsMessages.describe(message));
    }
  }

  private Message receiveOne(String consumerId, MessageConsumer consumer, long timeout) throws Exception {
    Message message = timeout < 0 ? consumer.receiveNoWait() : consumer.receive(timeout);
    if (message != null) lastReceived.put(consumerSessions.get(consumerId), message);
    return message;
  }

  private ArrayNode browse(JsonNode c) throws Exception {
    QueueBrowser browser = session(c).createBrowser((javax.jms.Queue) destination(c.path("destination")), c.path("selector").asText(null));
    ArrayNode messages = TaggedJson.NODES.arrayNode();
    try {
      for (Object message : java.util.Collections.list(browser.getEnumeration())) messages.add(JmsMessages.describe((Message) message));
    } finally {
      browser.close();
    }
    return messages;
  }

  /** CLIENT_ACKNOWLEDGE: acknowledges (as JMS does, the whole session) through the last message received. */
  private void acknowledge(JsonNode c) throws Exception {
    Message last = lastReceived.get(text(c, "session"));
    if (last == null) throw new IllegalStateException("session " + text(c, "session") + " has received nothing to acknowledge");
    last.acknowledge();
  }

  private JsonNode temporary(Destination destination) {
    JsonNode described = JmsDestinations.describe(destination);
    temporaries.put(described.get("address").asText(), destination);
    return described;
  }

  private void deleteTemporary(JsonNode c) throws Exception {
    JsonNode described = JmsDestinations.describe(destination(c.path("destination")));
    Destination temporary = temporaries.remove(described.get("address").asText());
    if (temporary instanceof TemporaryQueue queue) queue.delete();
    else if (temporary instanceof TemporaryTopic topic) topic.delete();
    else throw new IllegalArgumentException("not a temporary destination this driver created: " + described);
  }

  private void closeConsumer(JsonNode c) throws Exception {
    String id = text(c, "consumer");
    consumer(id).close();
    consumers.remove(id);
    consumerSessions.remove(id);
  }

  private void closeSession(String id) throws Exception {
    Session session = sessions.remove(id);
    if (session == null) throw new IllegalArgumentException("no session " + id);
    producers.remove(id);
    lastReceived.remove(id);
    consumerSessions.values().removeIf(id::equals);
    session.close();
  }

  private void closeConnection(String id) throws Exception {
    Connection connection = connections.remove(id);
    if (connection == null) throw new IllegalArgumentException("no connection " + id);
    factories.remove(id);
    connection.close();
  }

  /** Closes every connection (and with it its sessions and consumers); failures are only reported. */
  private void closeAll() {
    contexts.closeAll();
    completions.clear();
    for (Connection connection : connections.values()) {
      try {
        connection.close();
      } catch (Exception e) {
        System.err.println("closing a connection failed: " + e);
      }
    }
    connections.clear();
    sessions.clear();
    producers.clear();
    consumers.clear();
    consumerSessions.clear();
    lastReceived.clear();
    temporaries.clear();
  }

  static Destination destination(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) throw new IllegalArgumentException("the command needs a destination");
    return JmsDestinations.parse(node);
  }

  private Connection connection(JsonNode c) {
    return lookup(connections, text(c, "connection"), "connection");
  }

  private Session session(JsonNode c) {
    return lookup(sessions, text(c, "session"), "session");
  }

  private MessageConsumer consumer(String id) {
    return lookup(consumers, id, "consumer");
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

  private String newHandle(String kind) {
    return kind + nextHandle++;
  }

  private void answer(ObjectNode answer) {
    write(answer);
  }

  private void event(ObjectNode event) {
    write(event);
  }

  /** Answers and events come from different threads (listeners): one whole line at a time. */
  private synchronized void write(ObjectNode line) {
    try {
      out.println(TaggedJson.LINES.writeValueAsString(line));
    } catch (IOException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
    out.flush();
  }
}
