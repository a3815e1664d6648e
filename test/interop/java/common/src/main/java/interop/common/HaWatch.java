package interop.common;

/**
 * Tells the harness, one stdout line per change, what a server of a live/backup pair or a cluster
 * is doing, by polling it (a server's own callbacks fire before its acceptors are open, and a
 * backup's topology fills in from another thread; a poll sees the state a client would meet):
 *
 * <pre>
 * ROLE live PORT NODEID   the server is active and every acceptor is open: clients can connect
 * ROLE backup PORT        started, waiting for its live (or back to waiting after a failback)
 * BACKUP announced        this node's topology member has a backup (the pair is complete)
 * BACKUP none             it has none (the backup went, or became live)
 * MEMBERS N               the cluster connection's topology has N live members
 * REPLICA synced          a replicating backup holds all of its live's data (REPLICA behind
 *                         when that stops being so); never printed by other servers
 * </pre>
 */
public final class HaWatch {
  /** What the watch asks a server; each server program answers in its own API. */
  public interface Probe {
    /** Active, with every acceptor started. */
    boolean serving();

    String nodeId();

    /** Whether this node's member in the cluster connection's topology names a backup. */
    boolean backupAnnounced();

    /** Members of the cluster connection's topology that have a live server. */
    int liveMembers();

    /** A replicating backup that is up to date with its live; false for every other server. */
    default boolean replicaSynced() {
      return false;
    }
  }

  private static final long POLL_MS = 50;

  private HaWatch() {}

  /** Starts the watch on a daemon thread: it ends with the JVM. */
  public static void start(Probe probe, int port) {
    Thread watch = new Thread(() -> run(probe, port), "ha-watch");
    watch.setDaemon(true);
    watch.start();
  }

  private static void run(Probe probe, int port) {
    String role = null;
    String backup = null;
    int members = -1;
    boolean synced = false;
    while (true) {
      try {
        String nowRole = probe.serving() ? "live " + port + " " + probe.nodeId() : "backup " + port;
        if (!nowRole.equals(role)) print("ROLE " + nowRole);
        role = nowRole;
        String nowBackup = probe.backupAnnounced() ? "announced" : "none";
        if (!nowBackup.equals(backup)) print("BACKUP " + nowBackup);
        backup = nowBackup;
        int nowMembers = probe.liveMembers();
        if (nowMembers != members) print("MEMBERS " + nowMembers);
        members = nowMembers;
        boolean nowSynced = probe.replicaSynced();
        if (nowSynced != synced) print(nowSynced ? "REPLICA synced" : "REPLICA behind");
        synced = nowSynced;
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        // A server in the middle of a state change can throw from a getter: look again next time.
        sleepQuietly();
      }
    }
  }

  private static void print(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
