package bench.common;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;

/**
 * How a client talks to the orchestrator (bench/lib/throughput.mjs), as bench/client.mjs does:
 * JSON lines on stdout ({"ready":true,...} once connected, then {"done":true,...} with the CPU
 * seconds used so far) and {"cmd":"producer-done"} read from stdin, after which a consumer gives up
 * once nothing has arrived for IDLE_MS.
 */
public final class Report {
  private final CompletableFuture<Void> producerDone = new CompletableFuture<>();

  public Report() {
    Thread reader = new Thread(this::readCommands, "bench-commands");
    reader.setDaemon(true);
    reader.start();
  }

  public void ready() {
    print(new JsonLine().put("ready", true).put("cpu_s", ProcessCpu.seconds()));
  }

  /** A producer's result: when its first send started and its last one returned (or was confirmed). */
  public void producerDone(long startedAtNs, long finishedAtNs) {
    done(new JsonLine().put("done", true).put("startedAtNs", startedAtNs).put("finishedAtNs", finishedAtNs));
  }

  /** A consumer's result: why it stopped ("complete" or "stalled") and what arrived. */
  public void consumerDone(String reason, ArrivalLog log) {
    done(log.summary(new JsonLine().put("done", true).put("reason", reason)));
  }

  private void done(JsonLine result) {
    print(result.put("cpu_s", ProcessCpu.seconds()));
  }

  /**
   * Once the producer is done: completes `stalled` with "stalled" when `progress` has not moved
   * for idleMs (checked every 100 ms, as bench/lib/idle-watch.mjs does).
   */
  public void watchForStallAfterProducerDone(
      IntSupplier progress, long idleMs, CompletableFuture<String> stalled) {
    producerDone.thenRun(
        () -> {
          Thread watcher = new Thread(() -> watch(progress, idleMs, stalled), "bench-stall-watch");
          watcher.setDaemon(true);
          watcher.start();
        });
  }

  private static void watch(IntSupplier progress, long idleMs, CompletableFuture<String> stalled) {
    int last = progress.getAsInt();
    long lastChangeAt = System.currentTimeMillis();
    while (!stalled.isDone()) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
      int now = progress.getAsInt();
      if (now != last) {
        last = now;
        lastChangeAt = System.currentTimeMillis();
      } else if (System.currentTimeMillis() - lastChangeAt > idleMs) {
        stalled.complete("stalled");
      }
    }
  }

  private void readCommands() {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        // The only command there is; its JSON has no other field to look at.
        if (line.contains("\"producer-done\"")) producerDone.complete(null);
      }
    } catch (IOException e) {
      System.err.println("bench client: reading commands failed: " + e);
    }
  }

  private static synchronized void print(JsonLine line) {
    System.out.println(line);
    System.out.flush();
  }
}
