package bench.common;

/**
 * The main of a Java benchmark client, whichever library it drives: reads ClientConfig from the
 * environment (ROLE=producer or consumer), runs that role with a Report, and exits: 0 once the
 * result is out (the command reader and the library's own threads would keep the JVM alive), 1
 * with the error on stderr when the role failed.
 */
public final class BenchMain {
  /** A producer or a consumer: does its work and prints its ready and result lines. */
  @FunctionalInterface
  public interface Role {
    void run(ClientConfig cfg, Report report) throws Exception;
  }

  private BenchMain() {}

  /** `client` names the program in its error line, e.g. "artemis bench client". */
  public static void run(String client, Role producer, Role consumer) {
    try {
      ClientConfig cfg = ClientConfig.fromEnvironment();
      Role role =
          switch (cfg.role) {
            case "producer" -> producer;
            case "consumer" -> consumer;
            default -> throw new IllegalArgumentException("ROLE must be producer or consumer, not " + cfg.role);
          };
      role.run(cfg, new Report());
    } catch (Exception e) {
      System.err.println(client + ": " + e);
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
