package bench.artemis;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.SendAcknowledgementHandler;
import org.apache.activemq.artemis.api.core.client.ServerLocator;

/**
 * The producer on Artemis' core client, doing what bench/clients/ours.mjs does:
 *
 * <ul>
 *   <li>non-durable: one send after another, each returning once the packet is written within the
 *       producer's credits (blockOnNonDurableSend false);
 *   <li>durable: a sliding window of IN_FLIGHT sends awaiting the broker's confirmation, which the
 *       broker gives once the message is synced to its journal. Artemis' client blocks a durable
 *       send() until it is confirmed (one at a time), so the window uses send() with a
 *       SendAcknowledgementHandler, its asynchronous form; the client calls that handler only on a
 *       session with a confirmation window, hence CONFIRMATION_WINDOW must not be -1 here.
 * </ul>
 */
final class BenchProducer {
  private BenchProducer() {}

  static void run(ClientConfig cfg, Report report) throws Exception {
    if (cfg.durable && cfg.confirmationWindow == -1) {
      throw new IllegalArgumentException(
          "a durable producer with IN_FLIGHT sends outstanding needs CONFIRMATION_WINDOW: Artemis'"
              + " client acknowledges asynchronous sends only on a session with a confirmation"
              + " window");
    }
    try (ServerLocator locator = Locators.create(cfg);
        ClientSessionFactory factory = locator.createSessionFactory();
        ClientSession session = factory.createSession(true, true)) {
      ClientProducer producer = session.createProducer(cfg.address);
      Payload payload = new Payload(cfg.size);
      report.ready();
      long startedAtNs = System.nanoTime();
      if (cfg.durable) {
        sendWithWindow(cfg, session, producer, payload);
      } else {
        for (int seq = 0; seq < cfg.messages; seq++) producer.send(message(session, false, payload, seq));
      }
      long finishedAtNs = System.nanoTime();
      report.done(
          new JsonLine()
              .put("done", true)
              .put("startedAtNs", startedAtNs)
              .put("finishedAtNs", finishedAtNs));
    }
  }

  private static void sendWithWindow(
      ClientConfig cfg, ClientSession session, ClientProducer producer, Payload payload)
      throws Exception {
    Semaphore window = new Semaphore(cfg.inFlight);
    AtomicReference<Exception> failure = new AtomicReference<>();
    SendAcknowledgementHandler settled =
        new SendAcknowledgementHandler() {
          @Override
          public void sendAcknowledged(Message message) {
            window.release();
          }

          @Override
          public void sendFailed(Message message, Exception e) {
            failure.compareAndSet(null, e);
            window.release();
          }
        };
    for (int seq = 0; seq < cfg.messages; seq++) {
      window.acquire();
      throwIfFailed(failure);
      producer.send(message(session, true, payload, seq), settled);
    }
    window.acquire(cfg.inFlight); // every send confirmed
    throwIfFailed(failure);
  }

  private static void throwIfFailed(AtomicReference<Exception> failure) throws Exception {
    Exception e = failure.get();
    if (e != null) throw e;
  }

  /** A new message per send: the client keeps a sent message until the broker has confirmed it. */
  private static ClientMessage message(ClientSession session, boolean durable, Payload payload, int seq) {
    ClientMessage message = session.createMessage(durable);
    message.getBodyBuffer().writeBytes(payload.forSequence(seq));
    return message;
  }
}
