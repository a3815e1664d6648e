package interop.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One command-line word of {@code name=value} pairs joined by semicolons ({@code
 * name=tls;port=41001;need-client-auth=true}), in the order given. A value may hold commas (a list,
 * as in HornetQ's XML); the harness writes the words, and no value it writes holds a semicolon.
 */
public final class Pairs {
  private Pairs() {}

  /** The pairs of `word`; `what` names the option in the error about a malformed one. */
  public static Map<String, String> parse(String word, String what) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : word.split(";")) {
      int equals = pair.indexOf('=');
      if (equals <= 0) throw new IllegalArgumentException(what + " is name=value pairs joined by semicolons, got '" + word + "'");
      pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    return pairs;
  }

  /** Removes and returns the pair `name`; an error naming it when it is missing. */
  public static String take(Map<String, String> pairs, String name, String what) {
    String value = pairs.remove(name);
    if (value == null) throw new IllegalArgumentException(what + " needs " + name + "=..., got " + pairs);
    return value;
  }
}
