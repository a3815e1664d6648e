package interop.hornetq;

import com.fasterxml.jackson.databind.node.ObjectNode;
import interop.common.Args;
import java.util.HashMap;
import java.util.Map;
import javax.jms.Connection;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.QueueConnection;
import javax.jms.QueueRequestor;
import javax.jms.QueueSession;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;
import javax.jms.TopicSubscriber;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.jms.HornetQJMSClient;
import org.hornetq.api.jms.JMSFactoryType;
import org.hornetq.api.jms.management.JMSManagementHelper;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * Issue 29's management scenario, run by HornetQ 2.4.7's own Java management client
 * (JMSManagementHelper and a QueueRequestor on hornetq.management) against a server on 127.0.0.1:
 * the same steps against real HornetQ 2.4.7 and against our broker, so that the test can compare
 * the answers. Needs the JMS queues `mgmt` and `mgmt2` and the topic `news`.
 *
 * <pre>
 * --port P
 * --refusal USER:PASSWORD:MANAGER:PASSWORD   instead: USER (no manage) sends two messages to mgmt and
 *                                            asks removeMessages, then MANAGER reads MessageCount
 * </pre>
 *
 * <p>Prints one JSON line per step, {"step", "succeeded", "result"} (the result as
 * JMSManagementHelper.getResult gives it), then {@code DONE}; exits 1 on an unexpected exception.
 */
public final class ManagementScenario {
  private final QueueRequestor requestor;
  /** The requestor's session, which makes the request messages. */
  private final Session session;

  private ManagementScenario(QueueRequestor requestor, Session session) {
    this.requestor = requestor;
    this.session = session;
  }

  public static void main(String[] argv) throws Exception {
    Args args = new Args(argv);
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, "127.0.0.1");
    params.put(TransportConstants.PORT_PROP_NAME, args.integer("port"));
    HornetQConnectionFactory factory = HornetQJMSClient.createConnectionFactoryWithoutHA(
        JMSFactoryType.CF, new TransportConfiguration(NettyConnectorFactory.class.getName(), params));
    if (args.has("refusal")) {
      refusal(factory, args.one("refusal").split(":"));
    } else {
      scenario(factory);
    }
    System.out.println("DONE");
    System.out.flush();
  }

  /** A user without manage is refused; a manager then finds the queue as it was. */
  private static void refusal(HornetQConnectionFactory factory, String[] logins) throws Exception {
    try (QueueConnection connection = factory.createQueueConnection(logins[0], logins[1])) {
      connection.start();
      QueueSession session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
      MessageProducer producer = session.createProducer(HornetQJMSClient.createQueue("mgmt"));
      producer.send(session.createTextMessage("one"));
      producer.send(session.createTextMessage("two"));
      ManagementScenario user = new ManagementScenario(
          new QueueRequestor(session, HornetQJMSClient.createQueue("hornetq.management")), session);
      try {
        user.operation("removeMessages without manage", "jms.queue.mgmt", "removeMessages", (Object) null);
      } catch (javax.jms.JMSException refused) {
        ObjectNode line = TaggedJson.object();
        line.put("step", "removeMessages without manage");
        line.put("refused", refused.getClass().getName());
        System.out.println(TaggedJson.LINES.writeValueAsString(line));
      }
    }
    try (QueueConnection connection = factory.createQueueConnection(logins[2], logins[3])) {
      connection.start();
      QueueSession session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
      new ManagementScenario(new QueueRequestor(session, HornetQJMSClient.createQueue("hornetq.management")), session)
          .attribute("MessageCount after the refusal", "jms.queue.mgmt", "MessageCount");
    }
  }

  private static void scenario(HornetQConnectionFactory factory) throws Exception {
    try (QueueConnection connection = factory.createQueueConnection()) {
      connection.setClientID("mgmt-client");
      connection.start();
      QueueSession session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
      Queue management = HornetQJMSClient.createQueue("hornetq.management");
      new ManagementScenario(new QueueRequestor(session, management), session).run(connection);
    }
  }

  private void run(Connection connection) throws Exception {
    Queue mgmt = HornetQJMSClient.createQueue("mgmt");
    MessageProducer producer = session.createProducer(mgmt);
    for (int seq = 0; seq < 4; seq++) {
      TextMessage message = session.createTextMessage("body " + seq);
      message.setIntProperty("seq", seq);
      message.setStringProperty("colour", seq % 2 == 0 ? "red" : "blue");
      producer.send(message);
    }
    Session idle = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    MessageConsumer watching = idle.createConsumer(mgmt, "seq > 100");

    String queue = "jms.queue.mgmt";
    for (String attribute : new String[] {"MessageCount", "ConsumerCount", "MessagesAdded", "DeliveringCount",
        "ScheduledCount", "Paused", "Address", "Name", "Temporary", "Durable"}) {
      attribute("attribute " + attribute, queue, attribute);
    }
    operation("countMessages red", queue, "countMessages", "colour = 'red'");
    operation("countMessages all", queue, "countMessages", (Object) null);
    operation("listMessagesAsJSON", queue, "listMessagesAsJSON", (Object) null);
    operation("listConsumersAsJSON", queue, "listConsumersAsJSON");
    operation("pause", queue, "pause");
    operation("isPaused", queue, "isPaused");
    operation("resume", queue, "resume");
    operation("moveMessages blue", queue, "moveMessages", "colour = 'blue'", "mgmt2");
    operation("countMessages mgmt2", "jms.queue.mgmt2", "countMessages", (Object) null);
    operation("removeMessages red", queue, "removeMessages", "colour = 'red'");
    operation("removeMessage unknown", queue, "removeMessage", "ID:00000000-0000-0000-0000-000000000000");
    operation("sendMessagesToDeadLetterAddress", "jms.queue.mgmt2", "sendMessagesToDeadLetterAddress", (Object) null);
    operation("core countMessages", "core.queue.jms.queue.mgmt", "countMessages", (Object) null);
    operation("core listMessagesAsJSON", "core.queue.jms.queue.mgmt2", "listMessagesAsJSON", (Object) null);
    watching.close();
    idle.close();

    operation("createQueue", "jms.server", "createQueue", "made");
    operation("createQueue again", "jms.server", "createQueue", "made");
    attribute("QueueNames", "jms.server", "QueueNames");
    operation("destroyQueue", "jms.server", "destroyQueue", "made");
    operation("listConnectionsAsJSON", "jms.server", "listConnectionsAsJSON");
    operation("listRemoteAddresses", "jms.server", "listRemoteAddresses");
    operation("listRemoteAddresses elsewhere", "jms.server", "listRemoteAddresses", "10.255.255.1");
    operation("closeConnectionsForAddress elsewhere", "jms.server", "closeConnectionsForAddress", "10.255.255.1");
    operation("core createQueue", "core.server", "createQueue", "core.address", "core.queue");
    operation("core destroyQueue", "core.server", "destroyQueue", "core.queue");

    Topic news = HornetQJMSClient.createTopic("news");
    Session topics = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    TopicSubscriber subscriber = topics.createDurableSubscriber(news, "daily");
    topics.createProducer(news).send(topics.createTextMessage("news"));
    operation("listAllSubscriptionsAsJSON", "jms.topic.news", "listAllSubscriptionsAsJSON");
    attribute("SubscriptionCount", "jms.topic.news", "SubscriptionCount");
    subscriber.close();
    topics.close();
    operation("dropDurableSubscription", "jms.topic.news", "dropDurableSubscription", "mgmt-client", "daily");
    operation("listDurableSubscriptionsAsJSON", "jms.topic.news", "listDurableSubscriptionsAsJSON");

    operation("unknown resource", "jms.queue.nothing", "countMessages", (Object) null);
    operation("unknown operation", queue, "explode");
  }

  private void attribute(String step, String resource, String attribute) throws Exception {
    Message request = requestMessage();
    JMSManagementHelper.putAttribute(request, resource, attribute);
    print(step, requestor.request(request));
  }

  private void operation(String step, String resource, String operation, Object... parameters) throws Exception {
    Message request = requestMessage();
    JMSManagementHelper.putOperationInvocation(request, resource, operation, parameters);
    print(step, requestor.request(request));
  }

  private Message requestMessage() throws Exception {
    return session.createMessage();
  }

  private static void print(String step, Message reply) throws Exception {
    ObjectNode line = TaggedJson.object();
    line.put("step", step);
    line.put("succeeded", JMSManagementHelper.hasOperationSucceeded(reply));
    line.set("result", TaggedJson.LINES.valueToTree(JMSManagementHelper.getResult(reply)));
    System.out.println(TaggedJson.LINES.writeValueAsString(line));
    System.out.flush();
  }
}
