package interop.artemis;

import interop.common.Args;
import interop.common.Lifeline;
import java.nio.file.Path;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.CoreAddressConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;

/**
 * An embedded ActiveMQ Artemis 2.40.0 broker on 127.0.0.1 with the acceptor Artemis creates for
 * HornetQ clients (the HORNETQ protocol, and the jms.queue. / jms.topic. prefixes that map HornetQ
 * addresses onto Artemis' anycast and multicast ones):
 *
 * <pre>
 * --port P                 the acceptor's port (chosen by the harness)
 * --queue NAME...          anycast address NAME with queue NAME (a HornetQ client's jms.queue.NAME)
 * --topic NAME...          multicast address NAME (a HornetQ client's jms.topic.NAME)
 * --limit NAME:BYTES:POLICY...  max-size-bytes and BLOCK | FAIL | DROP | PAGE for address NAME
 * --connection-ttl MS      connection-ttl-override
 * --data DIR               persistent (journal in DIR); without it nothing is persisted
 * </pre>
 *
 * HornetQ 2.4 clients cannot have Artemis auto-create destinations, so they are created here.
 * Security and JMX are off. Prints {@code READY <port> <nodeId>}; stops when stdin closes or on
 * SIGTERM.
 */
public final class ArtemisServer {
  private ArtemisServer() {}

  public static void main(String[] argv) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    Args args = new Args(argv);
    int port = args.integer("port");
    EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    server.setConfiguration(configuration(args, port));
    server.start();
    System.out.println("READY " + port + " " + server.getActiveMQServer().getNodeID());
    System.out.flush();
    Lifeline.holdUntilStdinCloses(server::stop);
  }

  private static ConfigurationImpl configuration(Args args, int port) throws Exception {
    ConfigurationImpl config = new ConfigurationImpl();
    config.setSecurityEnabled(false);
    config.setJMXManagementEnabled(false);
    // A shared 2-core machine stalls threads for seconds; Artemis must not take that for a deadlock.
    config.setCriticalAnalyzer(false);
    // Nor stop producers because the test machine's disk happens to be nearly full.
    config.setMaxDiskUsage(-1);
    persistence(config, args);
    config.addAcceptorConfiguration(
        "hornetq", "tcp://127.0.0.1:" + port + "?protocols=HORNETQ,CORE;anycastPrefix=jms.queue.;multicastPrefix=jms.topic.");
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
    return config;
  }

  private static void persistence(ConfigurationImpl config, Args args) {
    if (!args.has("data")) {
      config.setPersistenceEnabled(false);
      return;
    }
    Path data = Path.of(args.one("data"));
    config.setPersistenceEnabled(true);
    config.setJournalDirectory(data.resolve("journal").toString());
    config.setBindingsDirectory(data.resolve("bindings").toString());
    config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
    config.setPagingDirectory(data.resolve("paging").toString());
  }
}
