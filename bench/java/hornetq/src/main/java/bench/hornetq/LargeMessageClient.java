package bench.hornetq;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.Map;
import java.util.Locale;
import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.api.jms.HornetQJMSClient;
import org.hornetq.api.jms.JMSFactoryType;
import org.hornetq.core.remoting.impl.netty.NettyConnectorFactory;
import org.hornetq.core.remoting.impl.netty.TransportConstants;
import org.hornetq.jms.client.HornetQConnectionFactory;
import org.hornetq.jms.client.HornetQDestination;

/**
 * One large message through HornetQ 2.4.7's JMS client with its defaults (min-large-message-size
 * 100 KiB, producer window 64 KiB, consumer window 1 MiB, 32 KiB socket buffers, block on durable
 * send): the Java side of bench/scenarios/java-large-message.mjs. Environment: ROLE (producer or
 * consumer), PORT, HOST (127.0.0.1), BENCH_ADDRESS (jms.queue.NAME), SIZE (bytes, producer),
 * TIMEOUT_MS (consumer). The producer sends one durable BytesMessage of SIZE bytes of
 * LargeMessageBody's pattern; the consumer takes one and reads its body to the end. Each prints
 * one JSON line: {"done":true,"bytes":N,"seconds":S,"sha256":"..."}, the seconds from the send
 * call to its return (the broker's answer to the last chunk), or from the receive call to the
 * body's last byte read. Exits 1 with the error on stderr on failure.
 */
public final class LargeMessageClient {
  private LargeMessageClient() {}

  public static void main(String[] args) {
    try {
      Map<String, String> env = System.getenv();
      String role = required(env, "ROLE");
      HornetQConnectionFactory factory = factory(env.getOrDefault("HOST", "127.0.0.1"), Integer.parseInt(required(env, "PORT")));
      Queue queue = queue(required(env, "BENCH_ADDRESS"));
      try (Connection connection = factory.createConnection();
          Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
        switch (role) {
          case "producer" -> produce(session, queue, Integer.parseInt(required(env, "SIZE")));
          case "consumer" -> {
            connection.start();
            consume(session, queue, Long.parseLong(env.getOrDefault("TIMEOUT_MS", "300000")));
          }
          default -> throw new IllegalArgumentException("ROLE must be producer or consumer, not " + role);
        }
      } finally {
        factory.close();
      }
    } catch (Exception e) {
      System.err.println("hornetq large-message client: " + e);
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void produce(Session session, Queue queue, int size) throws Exception {
    byte[] body = LargeMessageBody.of(size);
    String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    try (MessageProducer producer = session.createProducer(queue)) {
      producer.setDeliveryMode(DeliveryMode.PERSISTENT);
      BytesMessage message = session.createBytesMessage();
      message.writeBytes(body);
      long started = System.nanoTime();
      producer.send(message);
      report(size, System.nanoTime() - started, sha256);
    }
  }

  private static void consume(Session session, Queue queue, long timeoutMs) throws Exception {
    try (MessageConsumer consumer = session.createConsumer(queue)) {
      long started = System.nanoTime();
      Message message = consumer.receive(timeoutMs);
      if (!(message instanceof BytesMessage bytes)) {
        throw new IllegalStateException("expected a BytesMessage within " + timeoutMs + " ms, got " + message);
      }
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 20];
      long total = 0;
      for (int read; (read = bytes.readBytes(buffer)) > 0; ) {
        digest.update(buffer, 0, read);
        total += read;
      }
      report(total, System.nanoTime() - started, HexFormat.of().formatHex(digest.digest()));
    }
  }

  private static void report(long bytes, long nanos, String sha256) {
    System.out.println(
        String.format(
            Locale.ROOT,
            "{\"done\":true,\"bytes\":%d,\"seconds\":%.6f,\"sha256\":\"%s\"}",
            bytes,
            nanos / 1e9,
            sha256));
    System.out.flush();
  }

  private static HornetQConnectionFactory factory(String host, int port) {
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, host);
    params.put(TransportConstants.PORT_PROP_NAME, port);
    return HornetQJMSClient.createConnectionFactoryWithoutHA(
        JMSFactoryType.CF, new TransportConfiguration(NettyConnectorFactory.class.getName(), params));
  }

  private static Queue queue(String address) {
    if (!address.startsWith(HornetQDestination.JMS_QUEUE_ADDRESS_PREFIX)) {
      throw new IllegalArgumentException("BENCH_ADDRESS must be jms.queue.NAME, not " + address);
    }
    return (Queue) HornetQDestination.fromAddress(address);
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " is not set");
    return value;
  }
}
