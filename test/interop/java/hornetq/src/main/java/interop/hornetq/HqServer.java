package interop.hornetq;

import interop.common.AcceptorParams;
import interop.common.Args;
import interop.common.Lifeline;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.naming.Context;
import org.hornetq.api.core.SimpleString;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.core.config.impl.ConfigurationImpl;
import org.hornetq.core.remoting.impl.netty.NettyAcceptorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.core.server.JournalType;
import org.hornetq.core.settings.impl.AddressFullMessagePolicy;
import org.hornetq.core.settings.impl.AddressSettings;
import org.hornetq.jms.server.config.impl.JMSConfigurationImpl;
import org.hornetq.jms.server.config.impl.JMSQueueConfigurationImpl;
import org.hornetq.jms.server.config.impl.TopicConfigurationImpl;
import org.hornetq.jms.server.embedded.EmbeddedJMS;

/**
 * An embedded HornetQ 2.4.7 JMS server on 127.0.0.1 for the interop tests:
 *
 * <pre>
 * --port P                 the acceptor's port (chosen by the harness)
 * --queue NAME...          JMS queues (core queue jms.queue.NAME)
 * --topic NAME...          JMS topics (address jms.topic.NAME with HornetQ's marker queue)
 * --limit NAME:BYTES:POLICY...  max-size-bytes and BLOCK | FAIL | DROP | PAGE for jms.queue.NAME
 * --dead-letter NAME:DLQ:ATTEMPTS...  jms.queue.NAME's dead-letter address jms.queue.DLQ, after
 *                          ATTEMPTS deliveries (DLQ must be a --queue too)
 * --connection-ttl MS      connection-ttl-override (how long a cut link's sessions wait for reattach)
 * --data DIR               persistent (NIO journal in DIR); without it nothing is persisted
 * --acceptor PARAMS...     more netty acceptors on 127.0.0.1, each one word (see AcceptorParams):
 *                          name=N;port=P and HornetQ's own parameters (ssl-enabled=true,
 *                          key-store-path=..., need-client-auth=true, trust-store-path=...)
 * --user, --security-setting  users and permissions (see HqSecurity); without them security is off
 * </pre>
 *
 * <p>HornetQ 2.4's SSLSupport opens a store's file only when its provider is JKS (the default); any
 * other provider loads an empty store. A PKCS#12 file is therefore given with the default provider:
 * Java 9 and later read PKCS#12 through a JKS key store (keystore.type.compat).
 *
 * <p>JMX is off. Prints {@code READY <port> <nodeId>} once it accepts connections; stops
 * when stdin closes or on SIGTERM.
 */
public final class HqServer {
  private HqServer() {}

  public static void main(String[] argv) throws Exception {
    Args args = new Args(argv);
    int port = args.integer("port");
    EmbeddedJMS server = new EmbeddedJMS();
    ConfigurationImpl config = configuration(args, port);
    HqSecurity.apply(args, config, server);
    server.setConfiguration(config);
    server.setJmsConfiguration(destinations(args));
    server.setContext(NO_JNDI);
    server.start();
    System.out.println("READY " + port + " " + server.getHornetQServer().getNodeID());
    System.out.flush();
    Lifeline.holdUntilStdinCloses(server::stop);
  }

  static ConfigurationImpl configuration(Args args, int port) {
    ConfigurationImpl config = new ConfigurationImpl();
    config.setJMXManagementEnabled(false);
    persistence(config, args);
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, "127.0.0.1");
    params.put(TransportConstants.PORT_PROP_NAME, port);
    config.getAcceptorConfigurations().add(new TransportConfiguration(NettyAcceptorFactory.class.getName(), params));
    for (String word : args.all("acceptor")) config.getAcceptorConfigurations().add(acceptor(AcceptorParams.parse(word)));
    if (args.has("connection-ttl")) config.setConnectionTTLOverride(args.integer("connection-ttl", -1));
    for (String limit : args.all("limit")) {
      String[] parts = limit.split(":");
      if (parts.length != 3) throw new IllegalArgumentException("--limit is NAME:BYTES:POLICY, got '" + limit + "'");
      AddressSettings settings = new AddressSettings();
      settings.setMaxSizeBytes(Long.parseLong(parts[1]));
      settings.setAddressFullMessagePolicy(AddressFullMessagePolicy.valueOf(parts[2]));
      config.getAddressesSettings().put("jms.queue." + parts[0], settings);
    }
    for (String deadLetter : args.all("dead-letter")) {
      String[] parts = deadLetter.split(":");
      if (parts.length != 3) throw new IllegalArgumentException("--dead-letter is NAME:DLQ:ATTEMPTS, got '" + deadLetter + "'");
      AddressSettings settings = config.getAddressesSettings().computeIfAbsent("jms.queue." + parts[0], name -> new AddressSettings());
      settings.setDeadLetterAddress(new SimpleString("jms.queue." + parts[1]));
      settings.setMaxDeliveryAttempts(Integer.parseInt(parts[2]));
    }
    return config;
  }

  /** A netty acceptor on 127.0.0.1 with `acceptor`'s parameters, as strings (HornetQ converts them). */
  private static TransportConfiguration acceptor(AcceptorParams acceptor) {
    Map<String, Object> params = new HashMap<>(acceptor.params);
    params.put(TransportConstants.HOST_PROP_NAME, "127.0.0.1");
    params.put(TransportConstants.PORT_PROP_NAME, acceptor.port);
    return new TransportConfiguration(NettyAcceptorFactory.class.getName(), params, acceptor.name);
  }

  private static void persistence(ConfigurationImpl config, Args args) {
    if (!args.has("data")) {
      config.setPersistenceEnabled(false);
      return;
    }
    Path data = Path.of(args.one("data"));
    config.setPersistenceEnabled(true);
    config.setJournalType(JournalType.NIO);
    config.setJournalDirectory(data.resolve("journal").toString());
    config.setBindingsDirectory(data.resolve("bindings").toString());
    config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
    config.setPagingDirectory(data.resolve("paging").toString());
  }

  static JMSConfigurationImpl destinations(Args args) {
    JMSConfigurationImpl jms = new JMSConfigurationImpl();
    for (String queue : args.all("queue")) jms.getQueueConfigurations().add(new JMSQueueConfigurationImpl(queue, null, true, "/queue/" + queue));
    for (String topic : args.all("topic")) jms.getTopicConfigurations().add(new TopicConfigurationImpl(topic, "/topic/" + topic));
    return jms;
  }

  /**
   * EmbeddedJMS binds every destination in JNDI; the tests look nothing up there (the clients name
   * destinations directly), so a context that accepts every call and holds nothing is enough.
   */
  static final Context NO_JNDI =
      (Context) Proxy.newProxyInstance(HqServer.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> null);
}
