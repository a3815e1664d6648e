package bench.artemis;

import bench.common.BenchMain;

/**
 * A benchmark producer or consumer on Artemis' own core client, in its own JVM: the Java
 * counterpart of bench/client.mjs, configured by the same environment variables (ROLE=producer or
 * consumer; see bench.common.ClientConfig) and printing the same JSON lines (see
 * bench.common.Report).
 */
public final class BenchClient {
  private BenchClient() {}

  public static void main(String[] args) {
    BenchMain.run("artemis bench client", BenchProducer::run, BenchConsumer::run);
  }
}
