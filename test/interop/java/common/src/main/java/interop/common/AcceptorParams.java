package interop.common;

import java.util.Map;

/**
 * One extra acceptor of a harness server, given as one {@link Pairs} word in HornetQ's netty
 * parameter names: {@code
 * name=tls;port=41001;key-store-path=/tmp/x/server.p12;key-store-password=...;need-client-auth=true}.
 * {@code name} and {@code port} say which acceptor; every other pair is a transport parameter (a
 * list, such as enabled-protocols, comma-separated as in HornetQ's XML).
 */
public final class AcceptorParams {
  private static final String WHAT = "--acceptor";

  public final String name;
  public final int port;
  /** The transport parameters, in the order given. */
  public final Map<String, String> params;

  private AcceptorParams(String name, int port, Map<String, String> params) {
    this.name = name;
    this.port = port;
    this.params = params;
  }

  public static AcceptorParams parse(String word) {
    Map<String, String> pairs = Pairs.parse(word, WHAT);
    String name = Pairs.take(pairs, "name", WHAT);
    int port = Integer.parseInt(Pairs.take(pairs, "port", WHAT));
    return new AcceptorParams(name, port, pairs);
  }
}
