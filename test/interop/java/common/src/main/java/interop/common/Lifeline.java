package interop.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps a server program alive exactly as long as the process that started it: the harness holds
 * the program's stdin open, so end of input means the harness is gone (or done) and the server must
 * stop, even when nobody sends it a signal. SIGTERM stops it the same way, through a shutdown hook.
 */
public final class Lifeline {
  private Lifeline() {}

  /** Blocks until stdin closes, then stops the server once and exits. */
  public static void holdUntilStdinCloses(AutoCloseable server) {
    AtomicBoolean stopped = new AtomicBoolean(false);
    Runnable stop =
        () -> {
          if (stopped.compareAndSet(false, true)) {
            try {
              server.close();
            } catch (Exception e) {
              System.err.println("stopping failed: " + e);
            }
          }
        };
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "stop-on-signal"));
    drain(System.in);
    stop.run();
    System.exit(0);
  }

  private static void drain(InputStream in) {
    byte[] discard = new byte[256];
    try {
      while (in.read(discard) >= 0) {
        // Input is not a command channel for servers: only its end matters.
      }
    } catch (IOException e) {
      System.err.println("stdin failed, stopping: " + e);
    }
  }
}
