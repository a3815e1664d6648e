package bench.artemis;

import bench.common.Arrivals;
import bench.common.ClientConfig;
import bench.common.Report;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;

/**
 * The consumer on Artemis' core client, doing what bench/clients/ours.mjs does: a message handler
 * that acknowledges every message, individually (ACK=individual: one SESS_INDIVIDUAL_ACKNOWLEDGE
 * each) or cumulatively (acks batched by the client up to ackBatchSize, 1 MiB), with
 * CONSUMER_WINDOW bytes of credit when given.
 */
final class BenchConsumer {
  private BenchConsumer() {}

  static void run(ClientConfig cfg, Report report) throws Exception {
    try (ServerLocator locator = Locators.create(cfg);
        ClientSessionFactory factory = locator.createSessionFactory();
        ClientSession session = factory.createSession(true, true);
        ClientConsumer consumer = session.createConsumer(cfg.address)) {
      Arrivals arrivals = new Arrivals(cfg);
      consumer.setMessageHandler(
          message ->
              arrivals.accept(
                  header -> {
                    if (cfg.individualAck) message.individualAcknowledge();
                    else message.acknowledge();
                    message.getBodyBuffer().readBytes(header);
                    return message.getBodySize();
                  }));
      session.start();
      arrivals.reportWhenFinished(report);
    }
  }
}
