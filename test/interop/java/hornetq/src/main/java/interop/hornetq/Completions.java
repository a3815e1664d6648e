package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.jms.CompletionListener;
import javax.jms.JMSException;
import javax.jms.Message;

/**
 * The CompletionListeners of the driver's asynchronous sends (JMS 2.0), by handle: each records
 * which messages HornetQ's client reported complete or failed, from whichever thread it calls
 * them on, so a later command can wait for them (bounded) and report them.
 */
final class Completions {
  /** The most completions one listener keeps: a test sends far fewer. */
  private static final int MAX_RECORDED = 100_000;

  private final Map<String, Recorder> recorders = new HashMap<>();

  /** A new listener under `handle`. */
  CompletionListener create(String handle) {
    Recorder recorder = new Recorder();
    recorders.put(handle, recorder);
    return recorder;
  }

  /**
   * Waits up to `timeoutMs` until the listener under `handle` has been called `count` times, then
   * answers what it recorded (fewer calls when the time ran out).
   */
  ObjectNode await(String handle, int count, long timeoutMs) throws InterruptedException {
    Recorder recorder = recorders.get(handle);
    if (recorder == null) throw new IllegalArgumentException("no completion listener '" + handle + "'");
    return recorder.await(count, timeoutMs);
  }

  void clear() {
    recorders.clear();
  }

  private static final class Recorder implements CompletionListener {
    private final List<String> completed = new ArrayList<>();
    private final List<ObjectNode> failed = new ArrayList<>();

    @Override
    public synchronized void onCompletion(Message message) {
      if (completed.size() < MAX_RECORDED) completed.add(messageId(message));
      notifyAll();
    }

    @Override
    public synchronized void onException(Message message, Exception exception) {
      if (failed.size() < MAX_RECORDED) {
        failed.add(TaggedJson.object().put("JMSMessageID", messageId(message)).set("error", DriverErrors.describe(exception)));
      }
      notifyAll();
    }

    synchronized ObjectNode await(int count, long timeoutMs) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
      for (long left = timeoutMs; completed.size() + failed.size() < count && left > 0; ) {
        wait(left);
        left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      }
      ObjectNode out = TaggedJson.object();
      ArrayNode ids = out.putArray("completed");
      completed.forEach(ids::add);
      out.putArray("failed").addAll(failed);
      return out;
    }

    private static String messageId(Message message) {
      try {
        return message.getJMSMessageID();
      } catch (JMSException e) {
        return "(no JMSMessageID: " + e + ")";
      }
    }
  }
}
