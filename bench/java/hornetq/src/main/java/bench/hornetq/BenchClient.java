package bench.hornetq;

import bench.common.BenchMain;

/**
 * A benchmark producer or consumer on HornetQ 2.4.7's JMS client, in its own JVM: the Java
 * counterpart of bench/client.mjs, configured by the same environment variables (ROLE=producer or
 * consumer; see bench.common.ClientConfig) and printing the same JSON lines (see
 * bench.common.Report). BENCH_ADDRESS is the queue's core address (jms.queue.NAME, as
 * bench/client.mjs names it), which is the JMS queue NAME.
 */
public final class BenchClient {
  private BenchClient() {}

  public static void main(String[] args) {
    BenchMain.run("hornetq bench client", BenchProducer::run, BenchConsumer::run);
  }
}
