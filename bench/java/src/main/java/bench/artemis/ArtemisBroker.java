package bench.artemis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.CoreAddressConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyAcceptor;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;

/**
 * An embedded ActiveMQ Artemis broker for the benchmark, on 127.0.0.1 only:
 *
 * <pre>java bench.artemis.ArtemisBroker --persistence on|off --data-dir DIR [--queue bench]</pre>
 *
 * Two acceptors on ephemeral ports: "hornetq" (protocol HORNETQ, with the jms.queue. and jms.topic.
 * prefixes that HornetQ 2.4 clients use, as Artemis' own generated broker.xml configures it) and
 * "core" (Artemis' native CORE protocol). The bench queue is pre-created as an anycast address
 * with one durable queue of the same name. Security and JMX are off; persistence uses the NIO
 * journal under DIR with Artemis' defaults (every durable send synced before it is confirmed).
 * Prints one JSON line {"ready":"READY","hornetq_port":P,"core_port":Q} once both accept
 * connections, and stops when its standard input ends or on SIGTERM.
 */
public final class ArtemisBroker {
  private ArtemisBroker() {}

  public static void main(String[] args) throws Exception {
    BrokerArguments arguments = BrokerArguments.parse(args);
    EmbeddedActiveMQ embedded = new EmbeddedActiveMQ();
    embedded.setConfiguration(configuration(arguments));
    embedded.start();
    ActiveMQServer server = embedded.getActiveMQServer();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(embedded), "artemis-stop"));
    System.out.println(
        new JsonLine()
            .put("ready", "READY")
            .put("hornetq_port", actualPort(server, "hornetq"))
            .put("core_port", actualPort(server, "core"))
            .put("persistence", arguments.persistence)
            .toString());
    System.out.flush();
    waitForEndOfInput(System.in);
    System.exit(0); // runs the shutdown hook, which stops the broker
  }

  private static Configuration configuration(BrokerArguments arguments) throws Exception {
    Path dir = arguments.dataDir;
    String hornetqAcceptor =
        "tcp://127.0.0.1:0?protocols=HORNETQ;anycastPrefix=jms.queue.;multicastPrefix=jms.topic.";
    return new ConfigurationImpl()
        .setName("bench-artemis")
        .setSecurityEnabled(false)
        .setJMXManagementEnabled(false)
        .setPersistenceEnabled(arguments.persistence)
        .setJournalType(JournalType.NIO)
        .setJournalDirectory(dir.resolve("journal").toString())
        .setBindingsDirectory(dir.resolve("bindings").toString())
        .setPagingDirectory(dir.resolve("paging").toString())
        .setLargeMessagesDirectory(dir.resolve("large-messages").toString())
        .setNodeManagerLockDirectory(dir.resolve("lock").toString())
        .addAcceptorConfiguration("hornetq", hornetqAcceptor)
        .addAcceptorConfiguration("core", "tcp://127.0.0.1:0?protocols=CORE")
        .addAddressConfiguration(
            new CoreAddressConfiguration()
                .setName(arguments.queue)
                .addRoutingType(RoutingType.ANYCAST)
                .addQueueConfiguration(
                    QueueConfiguration.of(arguments.queue)
                        .setAddress(arguments.queue)
                        .setRoutingType(RoutingType.ANYCAST)
                        .setDurable(true)));
  }

  private static int actualPort(ActiveMQServer server, String acceptorName) {
    // Port 0 in the URL: the acceptor binds an ephemeral port, which only the acceptor knows.
    NettyAcceptor acceptor = (NettyAcceptor) server.getRemotingService().getAcceptor(acceptorName);
    return acceptor.getActualPort();
  }

  private static void waitForEndOfInput(InputStream input) throws IOException {
    byte[] discard = new byte[256];
    while (input.read(discard) >= 0) {
      // Nothing is read from stdin but its end: the parent closes it (or dies) to stop us.
    }
  }

  private static void stopQuietly(EmbeddedActiveMQ embedded) {
    try {
      embedded.stop();
    } catch (Exception e) {
      System.err.println("artemis: stopping the broker failed: " + e);
    }
  }

  /** The command line: --persistence on|off, --data-dir DIR, --queue NAME. */
  private static final class BrokerArguments {
    boolean persistence = true;
    Path dataDir;
    String queue = "bench";

    static BrokerArguments parse(String[] args) {
      BrokerArguments parsed = new BrokerArguments();
      for (int i = 0; i < args.length; i += 2) {
        if (i + 1 >= args.length) throw new IllegalArgumentException(args[i] + " needs a value");
        String value = args[i + 1];
        switch (args[i]) {
          case "--persistence" -> parsed.persistence = onOff(value);
          case "--data-dir" -> parsed.dataDir = Path.of(value);
          case "--queue" -> parsed.queue = value;
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (parsed.dataDir == null) throw new IllegalArgumentException("--data-dir DIR is required");
      return parsed;
    }

    private static boolean onOff(String value) {
      return switch (value) {
        case "on" -> true;
        case "off" -> false;
        default -> throw new IllegalArgumentException("--persistence takes on or off, not " + value);
      };
    }
  }
}
