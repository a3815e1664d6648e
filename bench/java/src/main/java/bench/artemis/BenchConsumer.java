package bench.artemis;

import java.util.concurrent.CompletableFuture;
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
      ArrivalLog log = new ArrivalLog(cfg.messages);
      CompletableFuture<String> finished = new CompletableFuture<>();
      byte[] header = new byte[Payload.HEADER_BYTES]; // the handler runs on one thread at a time
      consumer.setMessageHandler(
          message -> {
            try {
              if (cfg.individualAck) message.individualAcknowledge();
              else message.acknowledge();
              int bodySize = message.getBodySize();
              message.getBodyBuffer().readBytes(header);
              if (log.record(header, bodySize)) finished.complete("complete");
            } catch (Exception | Error e) {
              finished.completeExceptionally(e);
            }
          });
      report.watchForStallAfterProducerDone(log::unique, cfg.idleMs, finished);
      session.start();
      report.ready();
      String reason = finished.get();
      report.done(log.summary(new JsonLine().put("done", true).put("reason", reason)));
    }
  }
}
