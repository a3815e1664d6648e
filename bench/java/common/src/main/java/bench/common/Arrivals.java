package bench.common;

import java.util.concurrent.CompletableFuture;

/**
 * What every consumer does with what arrives, whichever library delivers it, as
 * bench/clients/ours.mjs does it: each message's header goes to an ArrivalLog, the run is complete
 * once every expected message has arrived, and any failure (in a delivery, or one the connection
 * reports) ends it with that failure. Deliveries come one at a time (the libraries call one
 * handler at a time), so one header buffer serves them all.
 */
public final class Arrivals {
  /** One delivered message: acknowledges it as the run requires, copies its header, says its size. */
  @FunctionalInterface
  public interface Delivery {
    /** Copies the body's first Payload.HEADER_BYTES into `header`; returns the body's size. */
    int readHeader(byte[] header) throws Exception;
  }

  private final ClientConfig cfg;
  private final ArrivalLog log;
  private final CompletableFuture<String> finished = new CompletableFuture<>();
  private final byte[] header = new byte[Payload.HEADER_BYTES];

  public Arrivals(ClientConfig cfg) {
    this.cfg = cfg;
    this.log = new ArrivalLog(cfg.messages);
  }

  /** Called from the library's delivery thread. */
  public void accept(Delivery delivery) {
    try {
      int bodySize = delivery.readHeader(header);
      if (log.record(header, bodySize)) finished.complete("complete");
    } catch (Exception | Error e) {
      finished.completeExceptionally(e);
    }
  }

  public void fail(Throwable e) {
    finished.completeExceptionally(e);
  }

  /**
   * Once subscribed and started: reports ready, waits until every message has arrived (or, after
   * the producer is done, nothing has for IDLE_MS), and reports what arrived; throws a failure.
   */
  public void reportWhenFinished(Report report) throws Exception {
    report.watchForStallAfterProducerDone(log::unique, cfg.idleMs, finished);
    report.ready();
    report.consumerDone(finished.get(), log);
  }
}
