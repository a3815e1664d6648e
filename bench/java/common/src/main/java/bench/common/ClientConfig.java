package bench.common;

import java.util.Map;

/**
 * What a benchmark client does, from the same environment variables as bench/client.mjs reads
 * (ROLE, HOST, PORT, MESSAGES, SIZE, BENCH_ADDRESS, DURABLE, IN_FLIGHT, ACK, CONFIRMATION_WINDOW,
 * PRODUCER_WINDOW, CONSUMER_WINDOW, IDLE_MS), with the same defaults, which are also Artemis'
 * and HornetQ's client defaults: producer window 64 KiB, consumer window 1 MiB, confirmation
 * window -1, acks batched up to 1 MiB.
 */
public final class ClientConfig {
  public final String role;
  public final String host;
  public final int port;
  public final int messages;
  public final int size;
  public final String address;
  public final boolean durable;
  public final int inFlight;
  public final boolean individualAck;
  public final int confirmationWindow;
  public final int producerWindow;
  public final Integer consumerWindow;
  public final long idleMs;

  private ClientConfig(Map<String, String> env) {
    role = required(env, "ROLE");
    host = env.getOrDefault("HOST", "127.0.0.1");
    port = Integer.parseInt(required(env, "PORT"));
    messages = Integer.parseInt(required(env, "MESSAGES"));
    size = number(env, "SIZE", 1024);
    address = env.getOrDefault("BENCH_ADDRESS", env.getOrDefault("BENCH_QUEUE", "bench"));
    durable = "1".equals(env.get("DURABLE"));
    inFlight = number(env, "IN_FLIGHT", 1000);
    String ack = env.getOrDefault("ACK", "cumulative");
    if (!ack.equals("cumulative") && !ack.equals("individual")) {
      throw new IllegalArgumentException("ACK must be cumulative or individual, not " + ack);
    }
    individualAck = ack.equals("individual");
    confirmationWindow = number(env, "CONFIRMATION_WINDOW", -1);
    producerWindow = number(env, "PRODUCER_WINDOW", 64 * 1024);
    String consumerWindowText = env.get("CONSUMER_WINDOW");
    consumerWindow =
        consumerWindowText == null || consumerWindowText.isEmpty()
            ? null
            : Integer.valueOf(consumerWindowText);
    idleMs = number(env, "IDLE_MS", 5000);
  }

  public static ClientConfig fromEnvironment() {
    return new ClientConfig(System.getenv());
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " is not set");
    return value;
  }

  private static int number(Map<String, String> env, String name, int fallback) {
    String value = env.get(name);
    return value == null || value.isEmpty() ? fallback : Integer.parseInt(value);
  }
}
