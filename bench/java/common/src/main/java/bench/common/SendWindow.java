package bench.common;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * At most `size` asynchronous sends awaiting the broker's confirmation, as bench/lib/send-window.mjs
 * keeps them for our client: take() before each send, and the client library's confirmation
 * callback calls confirmed() or failed(); drain() waits for the last of them. The first failure is
 * thrown from the next take() or drain().
 */
public final class SendWindow {
  private final int size;
  private final Semaphore free;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  public SendWindow(int size) {
    this.size = size;
    this.free = new Semaphore(size);
  }

  /** Waits for a free place in the window. */
  public void take() throws Exception {
    free.acquire();
    throwIfFailed();
  }

  /** The broker confirmed a send. */
  public void confirmed() {
    free.release();
  }

  /** A send failed: remembered, and its place given back so that nothing waits forever. */
  public void failed(Exception e) {
    failure.compareAndSet(null, e);
    free.release();
  }

  /** Waits until every send taken has been confirmed (or has failed). */
  public void drain() throws Exception {
    free.acquire(size);
    throwIfFailed();
  }

  private void throwIfFailed() throws Exception {
    Exception e = failure.get();
    if (e != null) throw e;
  }
}
