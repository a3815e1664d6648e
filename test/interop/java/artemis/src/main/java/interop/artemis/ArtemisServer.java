package interop.artemis;

import interop.common.AcceptorParams;
import interop.common.Args;
import interop.common.Lifeline;
import java.nio.file.Path;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.CoreAddressConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyAcceptor;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;

/**
 * An embedded ActiveMQ Artemis 2.40.0 broker on 127.0.0.1 with the acceptor Artemis creates for
 * HornetQ clients (the HORNETQ protocol, and the jms.queue. / jms.topic. prefixes that map HornetQ
 * addresses onto Artemis' anycast and multicast ones). The interop harness and the benchmark
 * (bench/peers-artemis.mjs) both run it:
 *
 * <pre>
 * --port P                 the acceptor's port (chosen by the harness; 0: an ephemeral one)
 * --core-port P            also an acceptor of Artemis' own CORE protocol alone, as Artemis'
 *                          generated broker.xml has one (0: an ephemeral port)
 * --queue NAME...          anycast address NAME with queue NAME (a HornetQ client's jms.queue.NAME)
 * --topic NAME...          multicast address NAME (a HornetQ client's jms.topic.NAME)
 * --limit NAME:BYTES:POLICY...  max-size-bytes and BLOCK | FAIL | DROP | PAGE for address NAME
 * --dead-letter NAME:DLQ:ATTEMPTS...  address NAME's dead-letter address DLQ, after ATTEMPTS
 *                          deliveries (DLQ must be a --queue too)
 * --connection-ttl MS      connection-ttl-override
 * --data DIR               persistent (NIO journal in DIR, every durable send synced before it is
 *                          confirmed: Artemis' defaults); without it nothing is persisted
 * --acceptor PARAMS...     more HORNETQ acceptors on 127.0.0.1, each one word (see AcceptorParams)
 *                          in HornetQ's parameter names, which become Artemis' (ssl-enabled:
 *                          sslEnabled, key-store-path: keyStorePath, ...); the stores are PKCS#12
 * </pre>
 *
 * HornetQ 2.4 clients cannot have Artemis auto-create destinations, so they are created here.
 * Security and JMX are off. Prints {@code READY <port> <nodeId>}, with {@code <corePort>} after
 * them when a CORE acceptor was asked for (the ports the acceptors bound); stops when stdin closes
 * or on SIGTERM.
 */
public final class ArtemisServer {
  private ArtemisServer() {}

  public static void main(String[] argv) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    Args args = new Args(argv);
    EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    server.setConfiguration(configuration(args));
    server.start();
    ActiveMQServer broker = server.getActiveMQServer();
    String ready = "READY " + actualPort(broker, HORNETQ_ACCEPTOR) + " " + broker.getNodeID();
    if (args.has("core-port")) ready += " " + actualPort(broker, CORE_ACCEPTOR);
    System.out.println(ready);
    System.out.flush();
    Lifeline.holdUntilStdinCloses(server::stop);
  }

  static final String HORNETQ_ACCEPTOR = "hornetq";
  private static final String CORE_ACCEPTOR = "core";

  /** The port an acceptor bound: the one asked for, or the ephemeral one port 0 got. */
  private static int actualPort(ActiveMQServer broker, String acceptorName) {
    return ((NettyAcceptor) broker.getRemotingService().getAcceptor(acceptorName)).getActualPort();
  }

  static ConfigurationImpl configuration(Args args) throws Exception {
    ConfigurationImpl config = new ConfigurationImpl();
    config.setSecurityEnabled(false);
    config.setJMXManagementEnabled(false);
    // A shared 2-core machine stalls threads for seconds; Artemis must not take that for a deadlock.
    config.setCriticalAnalyzer(false);
    // Nor stop producers because the test machine's disk happens to be nearly full.
    config.setMaxDiskUsage(-1);
    persistence(config, args);
    config.addAcceptorConfiguration(
        HORNETQ_ACCEPTOR,
        hornetqAcceptorUri(args.integer("port")));
    for (String word : args.all("acceptor")) {
      AcceptorParams acceptor = AcceptorParams.parse(word);
      config.addAcceptorConfiguration(acceptor.name, hornetqAcceptorUri(acceptor.port) + artemisParams(acceptor));
    }
    if (args.has("core-port")) {
      config.addAcceptorConfiguration(CORE_ACCEPTOR, "tcp://127.0.0.1:" + args.integer("core-port") + "?protocols=CORE");
    }
    if (args.has("connection-ttl")) config.setConnectionTTLOverride(args.integer("connection-ttl", -1));
    for (String queue : args.all("queue")) {
      config.addQueueConfiguration(QueueConfiguration.of(queue).setAddress(queue).setRoutingType(RoutingType.ANYCAST).setDurable(true));
    }
    for (String topic : args.all("topic")) {
      config.addAddressConfiguration(new CoreAddressConfiguration().setName(topic).addRoutingType(RoutingType.MULTICAST));
    }
    for (String limit : args.all("limit")) {
      String[] parts = limit.split(":");
      if (parts.length != 3) throw new IllegalArgumentException("--limit is NAME:BYTES:POLICY, got '" + limit + "'");
      AddressSettings settings = new AddressSettings();
      settings.setMaxSizeBytes(Long.parseLong(parts[1]));
      settings.setAddressFullMessagePolicy(AddressFullMessagePolicy.valueOf(parts[2]));
      config.addAddressSetting(parts[0], settings);
    }
    for (String deadLetter : args.all("dead-letter")) {
      String[] parts = deadLetter.split(":");
      if (parts.length != 3) throw new IllegalArgumentException("--dead-letter is NAME:DLQ:ATTEMPTS, got '" + deadLetter + "'");
      AddressSettings settings = config.getAddressSettings().computeIfAbsent(parts[0], name -> new AddressSettings());
      settings.setDeadLetterAddress(SimpleString.of(parts[1]));
      settings.setMaxDeliveryAttempts(Integer.parseInt(parts[2]));
    }
    return config;
  }

  /** An acceptor for HornetQ clients: the HORNETQ protocol and the prefixes of HornetQ's JMS addresses. */
  private static String hornetqAcceptorUri(int port) {
    return "tcp://127.0.0.1:" + port + "?protocols=HORNETQ,CORE;anycastPrefix=jms.queue.;multicastPrefix=jms.topic.";
  }

  /**
   * HornetQ's parameter names in Artemis' spelling (key-store-path: keyStorePath), as more of the
   * URI's parameters. The harness's stores are PKCS#12 files, which Artemis is told (its default
   * type is JKS).
   */
  private static String artemisParams(AcceptorParams acceptor) {
    StringBuilder uri = new StringBuilder();
    acceptor.params.forEach((name, value) -> uri.append(';').append(camelCase(name)).append('=').append(value));
    if (acceptor.params.containsKey("key-store-path")) uri.append(";keyStoreType=PKCS12");
    if (acceptor.params.containsKey("trust-store-path")) uri.append(";trustStoreType=PKCS12");
    return uri.toString();
  }

  private static String camelCase(String kebab) {
    StringBuilder out = new StringBuilder();
    boolean upper = false;
    for (char c : kebab.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return out.toString();
  }

  private static void persistence(ConfigurationImpl config, Args args) {
    if (!args.has("data")) {
      config.setPersistenceEnabled(false);
      return;
    }
    Path data = Path.of(args.one("data"));
    config.setPersistenceEnabled(true);
    // NIO on every machine: the default (AIO) depends on whether libaio happens to be installed.
    config.setJournalType(JournalType.NIO);
    config.setNodeManagerLockDirectory(data.resolve("lock").toString());
    config.setJournalDirectory(data.resolve("journal").toString());
    config.setBindingsDirectory(data.resolve("bindings").toString());
    config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
    config.setPagingDirectory(data.resolve("paging").toString());
  }
}
