package bench.hornetq;

import bench.common.Arrivals;
import bench.common.ClientConfig;
import bench.common.Report;
import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.MessageConsumer;
import javax.jms.Session;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * The consumer on HornetQ's JMS client, doing what bench/clients/ours.mjs does: a message listener
 * whose every message is acknowledged, without waiting for the broker, by the JMS session after the
 * listener returns:
 *
 * <ul>
 *   <li>ACK=individual, one acknowledgement a message: an AUTO_ACKNOWLEDGE session, whose client
 *       session has an ack batch size of 0, so that each message's SESS_ACKNOWLEDGE goes out on its
 *       own, as our consumer sends one SESS_INDIVIDUAL_ACKNOWLEDGE a message. (HornetQ's
 *       INDIVIDUAL_ACKNOWLEDGE mode is not that: its Message.acknowledge() commits the session
 *       after each individual acknowledgement, a blocking round trip a message.)
 *   <li>ACK=cumulative: a DUPS_OK_ACKNOWLEDGE session, whose acknowledgements the client batches up
 *       to dups-ok-batch-size (1 MiB), as our client batches them up to ackBatchSize (1 MiB).
 * </ul>
 *
 * CONSUMER_WINDOW bytes of credit when given. An error the connection reports ends the run with
 * that error.
 */
final class BenchConsumer {
  private BenchConsumer() {}

  static void run(ClientConfig cfg, Report report) throws Exception {
    int acknowledgeMode = cfg.individualAck ? Session.AUTO_ACKNOWLEDGE : Session.DUPS_OK_ACKNOWLEDGE;
    HornetQConnectionFactory factory = ConnectionFactories.create(cfg);
    try (Connection connection = factory.createConnection();
        Session session = connection.createSession(false, acknowledgeMode);
        MessageConsumer consumer = session.createConsumer(ConnectionFactories.queue(cfg))) {
      Arrivals arrivals = new Arrivals(cfg);
      connection.setExceptionListener(arrivals::fail);
      consumer.setMessageListener(
          message ->
              arrivals.accept(
                  header -> {
                    BytesMessage bytes = (BytesMessage) message;
                    bytes.readBytes(header);
                    return (int) bytes.getBodyLength();
                  }));
      connection.start();
      arrivals.reportWhenFinished(report);
    } finally {
      factory.close();
    }
  }
}
