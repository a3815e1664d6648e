package bench.artemis;

/**
 * A benchmark producer or consumer on Artemis' own core client, in its own JVM: the Java
 * counterpart of bench/client.mjs, configured by the same environment variables (ROLE=producer or
 * consumer; see ClientConfig) and printing the same JSON lines (see Report).
 */
public final class BenchClient {
  private BenchClient() {}

  public static void main(String[] args) {
    try {
      ClientConfig cfg = ClientConfig.fromEnvironment();
      Report report = new Report();
      switch (cfg.role) {
        case "producer" -> BenchProducer.run(cfg, report);
        case "consumer" -> BenchConsumer.run(cfg, report);
        default -> throw new IllegalArgumentException("ROLE must be producer or consumer, not " + cfg.role);
      }
    } catch (Exception e) {
      System.err.println("artemis bench client: " + e);
      e.printStackTrace();
      System.exit(1);
    }
    // The command reader and Artemis' client threads would keep the JVM alive: the result is out.
    System.exit(0);
  }
}
