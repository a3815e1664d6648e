package interop.artemis;

import interop.common.Args;
import interop.common.HaWatch;
import interop.common.Lifeline;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.core.client.impl.TopologyMemberImpl;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.HAPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.PrimaryOnlyPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicaPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicatedPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.SharedStoreBackupPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.SharedStorePrimaryPolicyConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.cluster.ClusterConnection;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.spi.core.remoting.Acceptor;

/**
 * One server of an ActiveMQ Artemis 2.40.0 live/backup pair or cluster, as its own process (so a
 * live can be killed for real), with ArtemisServer's HORNETQ acceptor for HornetQ 2.4 clients and a
 * cluster connection over static connectors to the other servers (a backup finds its live through
 * it, and announces itself; the live passes {live, backup} on to clients):
 *
 * <pre>
 * --ha POLICY                 replication-primary | replication-backup (each its own --data),
 *                             shared-primary | shared-backup (both the same --data: the store and
 *                             its file lock), cluster (a live server without a backup)
 * --port P                    the HORNETQ acceptor (also the connector this server announces)
 * --peer-port P...            the other servers' acceptors (the cluster connection's static connectors)
 * --data DIR                  required: a pair needs a journal
 * --allow-failback true|false allow-failback of a backup (default true)
 * --failback-delay MS         failback-delay of a shared-store backup (default 1000)
 * --failover-on-shutdown true|false  of a shared-store pair (default false)
 * </pre>
 *
 * and ArtemisServer's --queue, --topic, --limit and --connection-ttl. Prints HaWatch's lines
 * (ROLE, BACKUP, MEMBERS, REPLICA); stops when stdin closes or on SIGTERM.
 */
public final class ArtemisHaServer {
  private static final String SELF = "self";
  private static final String CLUSTER = "ha";
  /** How soon a cluster connection or a backup tries its peer again (Artemis' default is 500). */
  private static final long RETRY_INTERVAL_MS = 500;

  private ArtemisHaServer() {}

  public static void main(String[] argv) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    Args args = new Args(argv);
    args.one("data"); // every policy here needs a journal
    int port = args.integer("port");
    if (port == 0) throw new IllegalArgumentException("--port must be given: a pair announces it to its peers");
    ConfigurationImpl config = ArtemisServer.configuration(args);
    config.setHAPolicyConfiguration(policy(args));
    cluster(config, port, args.all("peer-port"));
    EmbeddedActiveMQ server = new EmbeddedActiveMQ();
    server.setConfiguration(config);
    server.start();
    HaWatch.start(new Probe(server.getActiveMQServer()), port);
    Lifeline.holdUntilStdinCloses(server::stop);
  }

  private static HAPolicyConfiguration policy(Args args) {
    boolean allowFailback = Boolean.parseBoolean(args.one("allow-failback", "true"));
    boolean failoverOnShutdown = Boolean.parseBoolean(args.one("failover-on-shutdown", "false"));
    long failbackDelay = args.integer("failback-delay", 1000);
    String policy = args.one("ha");
    switch (policy) {
      case "replication-primary":
        // A restarted primary first looks for a server active with its node id (its backup): failback.
        return new ReplicatedPolicyConfiguration().setCheckForActiveServer(true).setClusterName(CLUSTER);
      case "replication-backup":
        return new ReplicaPolicyConfiguration().setAllowFailBack(allowFailback).setRestartBackup(true).setClusterName(CLUSTER);
      case "shared-primary":
        return new SharedStorePrimaryPolicyConfiguration().setFailoverOnServerShutdown(failoverOnShutdown);
      case "shared-backup":
        return new SharedStoreBackupPolicyConfiguration()
            .setAllowFailBack(allowFailback)
            .setFailbackDelay(failbackDelay)
            .setFailoverOnServerShutdown(failoverOnShutdown)
            .setRestartBackup(true);
      case "cluster":
        return new PrimaryOnlyPolicyConfiguration();
      default:
        throw new IllegalArgumentException(
            "--ha is replication-primary, replication-backup, shared-primary, shared-backup or cluster, got '" + policy + "'");
    }
  }

  private static void cluster(ConfigurationImpl config, int port, List<String> peerPorts) throws Exception {
    if (peerPorts.isEmpty()) throw new IllegalArgumentException("--peer-port needs at least one port");
    config.addConnectorConfiguration(SELF, "tcp://127.0.0.1:" + port);
    List<String> peers = new ArrayList<>();
    for (String peerPort : peerPorts) {
      String name = "peer-" + Integer.parseInt(peerPort);
      config.addConnectorConfiguration(name, "tcp://127.0.0.1:" + peerPort);
      peers.add(name);
    }
    config.addClusterConfiguration(
        new ClusterConnectionConfiguration()
            .setName(CLUSTER)
            .setConnectorName(SELF)
            .setStaticConnectors(peers)
            .setRetryInterval(RETRY_INTERVAL_MS)
            .setMessageLoadBalancingType(MessageLoadBalancingType.ON_DEMAND));
  }

  /** HaWatch's questions in Artemis' API. */
  private static final class Probe implements HaWatch.Probe {
    private final ActiveMQServer server;

    Probe(ActiveMQServer server) {
      this.server = server;
    }

    @Override
    public boolean serving() {
      if (!server.isActive() || server.getRemotingService() == null) return false;
      var acceptors = server.getRemotingService().getAcceptors();
      if (acceptors.isEmpty()) return false;
      for (Acceptor acceptor : acceptors.values()) if (!acceptor.isStarted()) return false;
      return true;
    }

    @Override
    public String nodeId() {
      return String.valueOf(server.getNodeID());
    }

    @Override
    public boolean backupAnnounced() {
      ClusterConnection cluster = cluster();
      if (cluster == null || server.getNodeID() == null) return false;
      TopologyMemberImpl own = cluster.getTopology().getMember(server.getNodeID().toString());
      return own != null && own.getBackup() != null;
    }

    @Override
    public int liveMembers() {
      ClusterConnection cluster = cluster();
      if (cluster == null) return 0;
      return (int) cluster.getTopology().getMembers().stream().filter(member -> member.getPrimary() != null).count();
    }

    @Override
    public boolean replicaSynced() {
      return !server.isActive() && server.isReplicaSync();
    }

    private ClusterConnection cluster() {
      return server.getClusterManager() == null ? null : server.getClusterManager().getClusterConnection(CLUSTER);
    }
  }
}
