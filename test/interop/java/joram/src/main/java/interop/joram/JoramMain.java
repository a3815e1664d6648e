package interop.joram;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.objectweb.jtests.jms.conform.connection.ConnectionTest;
import org.objectweb.jtests.jms.conform.connection.TopicConnectionTest;
import org.objectweb.jtests.jms.conform.message.MessageBodyTest;
import org.objectweb.jtests.jms.conform.message.MessageDefaultTest;
import org.objectweb.jtests.jms.conform.message.MessageTypeTest;
import org.objectweb.jtests.jms.conform.message.headers.MessageHeaderTest;
import org.objectweb.jtests.jms.conform.message.properties.JMSXPropertyTest;
import org.objectweb.jtests.jms.conform.message.properties.MessagePropertyConversionTest;
import org.objectweb.jtests.jms.conform.message.properties.MessagePropertyTest;
import org.objectweb.jtests.jms.conform.queue.QueueBrowserTest;
import org.objectweb.jtests.jms.conform.queue.TemporaryQueueTest;
import org.objectweb.jtests.jms.conform.selector.SelectorSyntaxTest;
import org.objectweb.jtests.jms.conform.selector.SelectorTest;
import org.objectweb.jtests.jms.conform.session.QueueSessionTest;
import org.objectweb.jtests.jms.conform.session.SessionTest;
import org.objectweb.jtests.jms.conform.session.TopicSessionTest;
import org.objectweb.jtests.jms.conform.session.UnifiedSessionTest;
import org.objectweb.jtests.jms.conform.topic.TemporaryTopicTest;

/**
 * Runs every JORAM conformance test class (the list HornetQ 2.4's JoramAggregationTest ran), one
 * test at a time with a bound of its own, so that a test that hangs is reported as such and the
 * rest still run. Prints one line {@code JORAM-RESULT {json}}: total, passed, and each failure's
 * test and message. Exit code 0 when the run completed, whatever the count; non-zero when it could not.
 */
public final class JoramMain {
  private static final Class<?>[] SUITE = {
    TopicConnectionTest.class,
    ConnectionTest.class,
    MessageBodyTest.class,
    MessageDefaultTest.class,
    MessageTypeTest.class,
    MessageHeaderTest.class,
    JMSXPropertyTest.class,
    MessagePropertyConversionTest.class,
    MessagePropertyTest.class,
    QueueBrowserTest.class,
    TemporaryQueueTest.class,
    SelectorSyntaxTest.class,
    SelectorTest.class,
    QueueSessionTest.class,
    SessionTest.class,
    TopicSessionTest.class,
    UnifiedSessionTest.class,
    TemporaryTopicTest.class,
  };

  /** Far above any JORAM test's own waits (TestConfig.TIMEOUT, a few seconds each). */
  private static final long TEST_BOUND_SECONDS = 120;

  private JoramMain() {}

  public static void main(String[] args) throws Exception {
    List<String[]> failures = new ArrayList<>();
    int total = 0;
    ExecutorService runner = Executors.newCachedThreadPool(daemonThreads());
    for (Class<?> suiteClass : SUITE) {
      for (Description test : Request.aClass(suiteClass).getRunner().getDescription().getChildren()) {
        total++;
        String name = suiteClass.getSimpleName() + "." + test.getMethodName();
        String failure = runOne(runner, suiteClass, test.getMethodName());
        System.err.println((failure == null ? "PASS " : "FAIL ") + name + (failure == null ? "" : ": " + failure));
        if (failure != null) failures.add(new String[] {name, failure});
      }
    }
    System.out.println("JORAM-RESULT " + json(total, failures));
    System.out.flush();
    // Threads of a test that hung may still hold connections: they must not keep the JVM alive.
    System.exit(0);
  }

  /** Null when the test passed, else why it did not. */
  private static String runOne(ExecutorService runner, Class<?> suiteClass, String method) {
    Future<Result> run = runner.submit(() -> new JUnitCore().run(Request.method(suiteClass, method)));
    try {
      Result result = run.get(TEST_BOUND_SECONDS, TimeUnit.SECONDS);
      if (result.getRunCount() == 0) return "did not run";
      if (result.wasSuccessful()) return null;
      Failure first = result.getFailures().get(0);
      return first.getException().getClass().getName() + ": " + first.getMessage();
    } catch (TimeoutException e) {
      run.cancel(true);
      return "did not finish within " + TEST_BOUND_SECONDS + " s";
    } catch (Exception e) {
      return "the runner failed: " + e;
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads() {
    return task -> {
      Thread thread = new Thread(task, "joram-test");
      thread.setDaemon(true);
      return thread;
    };
  }

  private static String json(int total, List<String[]> failures) {
    StringBuilder out = new StringBuilder();
    out.append("{\"total\":").append(total);
    out.append(",\"passed\":").append(total - failures.size());
    out.append(",\"failed\":[");
    for (int i = 0; i < failures.size(); i++) {
      if (i > 0) out.append(',');
      out.append("{\"test\":").append(quote(failures.get(i)[0]));
      out.append(",\"message\":").append(quote(failures.get(i)[1])).append('}');
    }
    return out.append("]}").toString();
  }

  private static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : String.valueOf(text).toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
