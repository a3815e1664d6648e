package bench.artemis;

import bench.common.ClientConfig;
import bench.common.Payload;
import bench.common.ProducerLoop;
import bench.common.Report;
import bench.common.SendWindow;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.SendAcknowledgementHandler;
import org.apache.activemq.artemis.api.core.client.ServerLocator;

/**
 * The producer on Artemis' core client, doing what bench/clients/ours.mjs does (ProducerLoop):
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
    try (ServerLocator locator = Locators.create(cfg);
        ClientSessionFactory factory = locator.createSessionFactory();
        ClientSession session = factory.createSession(true, true)) {
      ClientProducer producer = session.createProducer(cfg.address);
      Payload payload = new Payload(cfg.size);
      ProducerLoop.run(
          cfg,
          report,
          "Artemis' client",
          seq -> producer.send(message(session, false, payload, seq)),
          window -> {
            SendAcknowledgementHandler confirmation = confirmationTo(window);
            return seq -> producer.send(message(session, true, payload, seq), confirmation);
          });
    }
  }

  private static SendAcknowledgementHandler confirmationTo(SendWindow window) {
    return new SendAcknowledgementHandler() {
      @Override
      public void sendAcknowledged(Message message) {
        window.confirmed();
      }

      @Override
      public void sendFailed(Message message, Exception e) {
        window.failed(e);
      }
    };
  }

  /** A new message per send: the client keeps a sent message until the broker has confirmed it. */
  private static ClientMessage message(ClientSession session, boolean durable, Payload payload, int seq) {
    ClientMessage message = session.createMessage(durable);
    message.getBodyBuffer().writeBytes(payload.forSequence(seq));
    return message;
  }
}
