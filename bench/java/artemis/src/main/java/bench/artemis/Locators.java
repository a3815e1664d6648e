package bench.artemis;

import bench.common.ClientConfig;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ServerLocator;

/** The Artemis core client's locator for one benchmark role, configured as bench/clients/ours.mjs. */
final class Locators {
  private Locators() {}

  static ServerLocator create(ClientConfig cfg) throws Exception {
    ServerLocator locator =
        ActiveMQClient.createServerLocator("tcp://" + cfg.host + ":" + cfg.port)
            .setConfirmationWindowSize(cfg.confirmationWindow)
            .setProducerWindowSize(cfg.producerWindow)
            .setBlockOnDurableSend(true)
            .setBlockOnNonDurableSend(false);
    if (cfg.consumerWindow != null) locator.setConsumerWindowSize(cfg.consumerWindow);
    return locator;
  }
}
