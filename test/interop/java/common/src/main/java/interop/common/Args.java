package interop.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line options of the form {@code --name value...}: every word up to the next {@code --}
 * belongs to the option before it, so {@code --queue a b --queue c} gives the queues a, b and c.
 */
public final class Args {
  private final Map<String, List<String>> values = new LinkedHashMap<>();

  public Args(String[] words) {
    List<String> current = null;
    for (String word : words) {
      if (word.startsWith("--")) {
        current = values.computeIfAbsent(word.substring(2), name -> new ArrayList<>());
      } else if (current == null) {
        throw new IllegalArgumentException("argument '" + word + "' comes before any --option");
      } else {
        current.add(word);
      }
    }
  }

  /** Every value given for the option, in order; empty when it is absent. */
  public List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The option's single value; an error naming the option when it is missing or repeated. */
  public String one(String name) {
    List<String> given = all(name);
    if (given.size() != 1) {
      throw new IllegalArgumentException("--" + name + " needs exactly one value, got " + given);
    }
    return given.get(0);
  }

  public String one(String name, String fallback) {
    return has(name) ? one(name) : fallback;
  }

  public int integer(String name) {
    String text = one(name);
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " is not an integer: '" + text + "'", e);
    }
  }

  public long integer(String name, long fallback) {
    return has(name) ? Long.parseLong(one(name)) : fallback;
  }
}
