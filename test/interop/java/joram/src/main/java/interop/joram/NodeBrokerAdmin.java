package interop.joram;

import java.util.HashMap;
import java.util.Map;
import javax.naming.Context;
import javax.naming.NamingException;
import org.hornetq.api.core.HornetQException;
import org.hornetq.api.core.HornetQExceptionType;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.core.client.ClientSession;
import org.hornetq.api.core.client.ClientSessionFactory;
import org.hornetq.api.core.client.HornetQClient;
import org.hornetq.api.core.client.ServerLocator;
import org.hornetq.api.jms.HornetQJMSClient;
import org.hornetq.api.jms.JMSFactoryType;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * JORAM's Admin for any server speaking HornetQ 2.4's core protocol on 127.0.0.1:{@code
 * -Djoram.port}: connection factories are HornetQ JMS client factories built here, and queues and
 * topics are created and deleted through the HornetQ core client (CREATE_QUEUE / DELETE_QUEUE), so
 * that every test starts with empty destinations. A JMS queue X is core queue jms.queue.X; a JMS
 * topic X is address jms.topic.X with HornetQ's marker queue of the same name, whose filter matches
 * nothing, which is what the JMS client's binding query looks for.
 */
public final class NodeBrokerAdmin implements org.objectweb.jtests.jms.admin.Admin {
  private static final String QUEUE_PREFIX = "jms.queue.";
  private static final String TOPIC_PREFIX = "jms.topic.";
  /** HornetQ's filter for a topic's marker queue: no message has this property at -1. */
  private static final String MARKER_FILTER = "__HQX=-1";

  private final Map<String, Object> bindings = MapContext.newBindings();
  private final TransportConfiguration connector = connector();
  private ServerLocator locator;
  private ClientSessionFactory sessionFactory;
  private ClientSession session;

  private static TransportConfiguration connector() {
    String port = System.getProperty("joram.port");
    if (port == null) throw new IllegalStateException("-Djoram.port is not set: which server should the suite test?");
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, "127.0.0.1");
    params.put(TransportConstants.PORT_PROP_NAME, Integer.parseInt(port));
    return new TransportConfiguration(NettyConnectorFactory.class.getName(), params);
  }

  @Override
  public String getName() {
    return "HornetQ 2.4.7 JMS client on 127.0.0.1:" + connector.getParams().get(TransportConstants.PORT_PROP_NAME);
  }

  @Override
  public Context createContext() throws NamingException {
    return new MapContext(bindings);
  }

  @Override
  public void createConnectionFactory(String name) {
    bindFactory(name, JMSFactoryType.CF);
  }

  @Override
  public void createQueueConnectionFactory(String name) {
    bindFactory(name, JMSFactoryType.QUEUE_CF);
  }

  @Override
  public void createTopicConnectionFactory(String name) {
    bindFactory(name, JMSFactoryType.TOPIC_CF);
  }

  private void bindFactory(String name, JMSFactoryType type) {
    closeFactory(bindings.put(name, HornetQJMSClient.createConnectionFactoryWithoutHA(type, connector)));
  }

  @Override
  public void deleteConnectionFactory(String name) {
    closeFactory(bindings.remove(name));
  }

  @Override
  public void deleteQueueConnectionFactory(String name) {
    deleteConnectionFactory(name);
  }

  @Override
  public void deleteTopicConnectionFactory(String name) {
    deleteConnectionFactory(name);
  }

  private static void closeFactory(Object factory) {
    if (factory instanceof HornetQConnectionFactory) ((HornetQConnectionFactory) factory).close();
  }

  @Override
  public void createQueue(String name) {
    recreate(QUEUE_PREFIX + name, QUEUE_PREFIX + name, null);
    bindings.put(name, HornetQJMSClient.createQueue(name));
  }

  @Override
  public void createTopic(String name) {
    recreate(TOPIC_PREFIX + name, TOPIC_PREFIX + name, MARKER_FILTER);
    bindings.put(name, HornetQJMSClient.createTopic(name));
  }

  @Override
  public void deleteQueue(String name) {
    bindings.remove(name);
    deleteIfThere(QUEUE_PREFIX + name);
  }

  @Override
  public void deleteTopic(String name) {
    bindings.remove(name);
    deleteIfThere(TOPIC_PREFIX + name);
  }

  /** A destination a failed test left behind is dropped, so the next test finds it empty. */
  private void recreate(String address, String queue, String filter) {
    deleteIfThere(queue);
    try {
      session().createQueue(address, queue, filter, true);
    } catch (HornetQException e) {
      throw new IllegalStateException("CREATE_QUEUE " + queue + " failed: " + e, e);
    }
  }

  private void deleteIfThere(String queue) {
    try {
      session().deleteQueue(queue);
    } catch (HornetQException e) {
      if (e.getType() != HornetQExceptionType.QUEUE_DOES_NOT_EXIST) {
        throw new IllegalStateException("DELETE_QUEUE " + queue + " failed: " + e, e);
      }
    }
  }

  private ClientSession session() {
    if (session == null) throw new IllegalStateException("the Admin is not started");
    return session;
  }

  /** The server is started by the runner (scripts/joram.mjs), not per test. */
  @Override
  public void startServer() {}

  @Override
  public void stopServer() {}

  @Override
  public void start() throws Exception {
    locator = HornetQClient.createServerLocatorWithoutHA(connector);
    sessionFactory = locator.createSessionFactory();
    session = sessionFactory.createSession();
  }

  @Override
  public void stop() throws Exception {
    for (Object bound : bindings.values()) closeFactory(bound);
    bindings.clear();
    if (session != null) session.close();
    if (sessionFactory != null) sessionFactory.close();
    if (locator != null) locator.close();
    session = null;
    sessionFactory = null;
    locator = null;
  }
}
