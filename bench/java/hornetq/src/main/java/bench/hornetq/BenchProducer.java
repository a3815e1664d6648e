package bench.hornetq;

import bench.common.ClientConfig;
import bench.common.Payload;
import bench.common.ProducerLoop;
import bench.common.Report;
import bench.common.SendWindow;
import javax.jms.BytesMessage;
import javax.jms.CompletionListener;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageProducer;
import javax.jms.Session;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * The producer on HornetQ's JMS client, doing what bench/clients/ours.mjs does (ProducerLoop), with
 * a BytesMessage of SIZE bytes a send:
 *
 * <ul>
 *   <li>non-durable (NON_PERSISTENT): one send after another, each returning once the packet is
 *       written within the producer's credits (block-on-non-durable-send off);
 *   <li>durable (PERSISTENT): a sliding window of IN_FLIGHT sends awaiting the broker's
 *       confirmation, which the broker gives once the message is synced to its journal. A
 *       PERSISTENT send() blocks until it is confirmed (one at a time), so the window uses JMS
 *       2.0's send(message, CompletionListener). HornetQ 2.4's client calls that listener on the
 *       broker's confirmation only on a session with a confirmation window: without one it calls
 *       it as soon as the packet is written (ClientProducerImpl.send with a handler), which would
 *       measure nothing durable. Hence CONFIRMATION_WINDOW must not be -1 here.
 * </ul>
 */
final class BenchProducer {
  private BenchProducer() {}

  static void run(ClientConfig cfg, Report report) throws Exception {
    HornetQConnectionFactory factory = ConnectionFactories.create(cfg);
    try (Connection connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(ConnectionFactories.queue(cfg))) {
      producer.setDeliveryMode(cfg.durable ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
      Payload payload = new Payload(cfg.size);
      ProducerLoop.run(
          cfg,
          report,
          "HornetQ's client",
          seq -> producer.send(message(session, payload, seq)),
          window -> {
            CompletionListener completion = completionTo(window);
            return seq -> producer.send(message(session, payload, seq), completion);
          });
    } finally {
      factory.close();
    }
  }

  private static CompletionListener completionTo(SendWindow window) {
    return new CompletionListener() {
      @Override
      public void onCompletion(Message message) {
        window.confirmed();
      }

      @Override
      public void onException(Message message, Exception e) {
        window.failed(e);
      }
    };
  }

  /** A new message per send: JMS 2.0 forbids touching a message until its send has completed. */
  private static BytesMessage message(Session session, Payload payload, int seq) throws JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(payload.forSequence(seq));
    return message;
  }
}
