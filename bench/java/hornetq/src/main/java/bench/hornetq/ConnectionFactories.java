package bench.hornetq;

import bench.common.ClientConfig;
import java.util.HashMap;
import java.util.Map;
import javax.jms.Queue;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.jms.HornetQJMSClient;
import org.hornetq.api.jms.JMSFactoryType;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.jms.client.HornetQConnectionFactory;
import org.hornetq.jms.client.HornetQDestination;

/**
 * HornetQ's JMS connection factory for one benchmark role, configured as bench/clients/ours.mjs
 * configures our client: one Netty connector (no HA, no discovery), the confirmation and producer
 * windows of ClientConfig, block-on-durable-send on and block-on-non-durable-send off (HornetQ's
 * defaults too), the consumer window when given, and TCP_BUFFER_SIZE, when given, as both its
 * tcp-send-buffer-size and tcp-receive-buffer-size. Unset, those are HornetQ 2.4.7's default, 32
 * KiB (Artemis' client has 1 MiB): on loopback, whose segments carry up to 64 KiB, 32 KiB socket
 * buffers (doubled by Linux) hold one segment, and a burst of sends then waits for each segment's
 * acknowledgement, which a receiver may delay by 40 ms.
 */
final class ConnectionFactories {
  private ConnectionFactories() {}

  static HornetQConnectionFactory create(ClientConfig cfg) {
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, cfg.host);
    params.put(TransportConstants.PORT_PROP_NAME, cfg.port);
    String tcpBufferSize = System.getenv("TCP_BUFFER_SIZE");
    if (tcpBufferSize != null && !tcpBufferSize.isEmpty()) {
      params.put(TransportConstants.TCP_SENDBUFFER_SIZE_PROPNAME, Integer.valueOf(tcpBufferSize));
      params.put(TransportConstants.TCP_RECEIVEBUFFER_SIZE_PROPNAME, Integer.valueOf(tcpBufferSize));
    }
    HornetQConnectionFactory factory =
        HornetQJMSClient.createConnectionFactoryWithoutHA(
            JMSFactoryType.CF, new TransportConfiguration(NettyConnectorFactory.class.getName(), params));
    factory.setConfirmationWindowSize(cfg.confirmationWindow);
    factory.setProducerWindowSize(cfg.producerWindow);
    factory.setBlockOnDurableSend(true);
    factory.setBlockOnNonDurableSend(false);
    if (cfg.consumerWindow != null) factory.setConsumerWindowSize(cfg.consumerWindow);
    return factory;
  }

  /** The JMS queue whose core address is BENCH_ADDRESS (jms.queue.NAME). */
  static Queue queue(ClientConfig cfg) {
    if (!cfg.address.startsWith(HornetQDestination.JMS_QUEUE_ADDRESS_PREFIX)) {
      throw new IllegalArgumentException(
          "BENCH_ADDRESS must be a JMS queue's address ("
              + HornetQDestination.JMS_QUEUE_ADDRESS_PREFIX
              + "NAME), not "
              + cfg.address);
    }
    return (Queue) HornetQDestination.fromAddress(cfg.address);
  }
}
