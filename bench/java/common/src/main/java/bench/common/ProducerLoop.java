package bench.common;

/**
 * What every producer does once connected, whichever library sends, as bench/clients/ours.mjs does
 * it: reports ready, sends MESSAGES messages, and reports when the first send started and the last
 * one returned (non-durable) or was confirmed (durable). Durable sends go through a SendWindow of
 * IN_FLIGHT sends awaiting the broker's confirmation, which a Java client reports asynchronously,
 * and only on a session with a confirmation window: the library's client calls its confirmation
 * callback at once otherwise, so CONFIRMATION_WINDOW -1 is refused for them.
 */
public final class ProducerLoop {
  /** Sends message `seq` (a new message each time: the client keeps it until it is confirmed). */
  @FunctionalInterface
  public interface Send {
    void send(int seq) throws Exception;
  }

  /** The library's asynchronous durable send, its confirmation callback made once for `window`. */
  @FunctionalInterface
  public interface ConfirmedSends {
    Send reportingTo(SendWindow window);
  }

  private ProducerLoop() {}

  /** `library` names the client in the error for a durable run without a confirmation window. */
  public static void run(
      ClientConfig cfg, Report report, String library, Send nonDurable, ConfirmedSends durable)
      throws Exception {
    if (cfg.durable && cfg.confirmationWindow == -1) {
      throw new IllegalArgumentException(
          "a durable producer with IN_FLIGHT sends outstanding needs CONFIRMATION_WINDOW: "
              + library
              + " confirms an asynchronous send on the broker's word only on a session with a"
              + " confirmation window");
    }
    report.ready();
    long startedAtNs = System.nanoTime();
    if (cfg.durable) {
      SendWindow window = new SendWindow(cfg.inFlight);
      Send send = durable.reportingTo(window);
      for (int seq = 0; seq < cfg.messages; seq++) {
        window.take();
        send.send(seq);
      }
      window.drain(); // every send confirmed
    } else {
      for (int seq = 0; seq < cfg.messages; seq++) nonDurable.send(seq);
    }
    report.producerDone(startedAtNs, System.nanoTime());
  }
}
