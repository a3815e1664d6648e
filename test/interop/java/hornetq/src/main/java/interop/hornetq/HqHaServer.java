package interop.hornetq;

import interop.common.Args;
import interop.common.HaWatch;
import interop.common.Lifeline;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hornetq.api.config.HornetQDefaultConfiguration;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.core.client.TopologyMember;
import org.hornetq.core.config.ClusterConnectionConfiguration;
import org.hornetq.core.config.impl.ConfigurationImpl;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.core.server.HornetQServer;
import org.hornetq.core.server.cluster.ClusterConnection;
import org.hornetq.jms.server.embedded.EmbeddedJMS;

/**
 * One server of a HornetQ 2.4.7 live/backup pair on a shared store, run as its own process so
 * that the live can be killed for real: both servers name the same --data directory, and
 * HornetQ's file lock in it (FileLockNodeManager) decides which one is live. A cluster connection
 * to the other server lets the backup announce itself to the live, which passes {live, backup}
 * on to its clients.
 *
 * <pre>
 * --role live|backup          which one this is (HornetQ's &lt;backup&gt;)
 * --port P                    this server's acceptor (the connector it announces)
 * --peer-port P               the other server's acceptor (the cluster connection's static connector)
 * --data DIR                  the shared store: journal, bindings, paging, large-messages, the lock
 * --allow-failback true|false &lt;allow-failback&gt; (default true)
 * --failback-delay MS         &lt;failback-delay&gt; (default 1000)
 * --failover-on-shutdown true|false  &lt;failover-on-shutdown&gt; (default false)
 * </pre>
 *
 * and HqServer's --queue, --topic, --limit and --connection-ttl. Prints HaWatch's lines (ROLE,
 * BACKUP, MEMBERS); stops when stdin closes or on SIGTERM.
 */
public final class HqHaServer {
  private static final String SELF = "self";
  private static final String PEER = "peer";
  private static final String CLUSTER = "pair";
  /** hornetq-configuration.xml's default for a cluster connection's confirmation-window-size. */
  private static final int CLUSTER_CONFIRMATION_WINDOW = 1024 * 1024;

  private HqHaServer() {}

  public static void main(String[] argv) throws Exception {
    Args args = new Args(argv);
    int port = args.integer("port");
    args.one("data"); // the shared store is what makes this a pair: required
    EmbeddedJMS server = new EmbeddedJMS();
    ConfigurationImpl config = HqServer.configuration(args, port);
    HqSecurity.apply(args, config, server);
    pair(config, args, port);
    server.setConfiguration(config);
    server.setJmsConfiguration(HqServer.destinations(args));
    server.setContext(HqServer.NO_JNDI);
    server.start();
    HaWatch.start(new Probe(server.getHornetQServer(), config), port);
    Lifeline.holdUntilStdinCloses(server::stop);
  }

  private static void pair(ConfigurationImpl config, Args args, int port) {
    String role = args.one("role");
    if (!role.equals("live") && !role.equals("backup")) throw new IllegalArgumentException("--role is live or backup, got '" + role + "'");
    config.setSharedStore(true);
    config.setBackup(role.equals("backup"));
    config.setAllowAutoFailBack(Boolean.parseBoolean(args.one("allow-failback", "true")));
    config.setFailbackDelay(args.integer("failback-delay", 1000));
    config.setFailoverOnServerShutdown(Boolean.parseBoolean(args.one("failover-on-shutdown", "false")));
    config.getConnectorConfigurations().put(SELF, connector(port));
    config.getConnectorConfigurations().put(PEER, connector(args.integer("peer-port")));
    config.getClusterConfigurations()
        .add(
            new ClusterConnectionConfiguration(
                CLUSTER,
                "jms",
                SELF,
                HornetQDefaultConfiguration.getDefaultClusterRetryInterval(),
                HornetQDefaultConfiguration.isDefaultClusterDuplicateDetection(),
                HornetQDefaultConfiguration.isDefaultClusterForwardWhenNoConsumers(),
                HornetQDefaultConfiguration.getDefaultClusterMaxHops(),
                CLUSTER_CONFIRMATION_WINDOW,
                List.of(PEER),
                false));
  }

  private static TransportConfiguration connector(int port) {
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, "127.0.0.1");
    params.put(TransportConstants.PORT_PROP_NAME, port);
    return new TransportConfiguration(NettyConnectorFactory.class.getName(), params);
  }

  /** HaWatch's questions in HornetQ 2.4's API. */
  private static final class Probe implements HaWatch.Probe {
    private final HornetQServer server;
    private final ConfigurationImpl config;

    Probe(HornetQServer server, ConfigurationImpl config) {
      this.server = server;
      this.config = config;
    }

    @Override
    public boolean serving() {
      if (!server.isActive()) return false;
      for (TransportConfiguration acceptor : config.getAcceptorConfigurations()) {
        var running = server.getRemotingService().getAcceptor(acceptor.getName());
        if (running == null || !running.isStarted()) return false;
      }
      return true;
    }

    @Override
    public String nodeId() {
      return String.valueOf(server.getNodeID());
    }

    @Override
    public boolean backupAnnounced() {
      ClusterConnection cluster = server.getClusterManager().getClusterConnection(CLUSTER);
      if (cluster == null || server.getNodeID() == null) return false;
      TopologyMember own = cluster.getTopology().getMember(server.getNodeID().toString());
      return own != null && own.getBackup() != null;
    }

    @Override
    public int liveMembers() {
      ClusterConnection cluster = server.getClusterManager().getClusterConnection(CLUSTER);
      if (cluster == null) return 0;
      return (int) cluster.getTopology().getMembers().stream().filter(member -> member.getLive() != null).count();
    }
  }
}
