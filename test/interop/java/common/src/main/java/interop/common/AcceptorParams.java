package interop.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One extra acceptor of a harness server, given as one command-line word of {@code name=value}
 * pairs joined by semicolons, in HornetQ's netty parameter names: {@code
 * name=tls;port=41001;key-store-path=/tmp/x/server.p12;key-store-password=...;need-client-auth=true}.
 * {@code name} and {@code port} say which acceptor; every other pair is a transport parameter (a
 * list, such as enabled-protocols, is comma-separated as in HornetQ's XML). The harness writes the
 * word, and no value it writes holds a semicolon or an equals sign.
 */
public final class AcceptorParams {
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
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : word.split(";")) {
      int equals = pair.indexOf('=');
      if (equals <= 0) throw new IllegalArgumentException("an acceptor is name=value pairs joined by semicolons, got '" + word + "'");
      pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    String name = pairs.remove("name");
    String port = pairs.remove("port");
    if (name == null || port == null) throw new IllegalArgumentException("an acceptor needs a name and a port, got '" + word + "'");
    return new AcceptorParams(name, Integer.parseInt(port), pairs);
  }
}
