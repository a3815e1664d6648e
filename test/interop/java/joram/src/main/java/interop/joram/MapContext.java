package interop.joram;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.naming.Name;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;

/**
 * The JNDI context JORAM's tests look their factories and destinations up in: a plain map, so that
 * no naming server is needed. The lazy InitialContext constructor never looks for a provider.
 */
final class MapContext extends InitialContext {
  private final Map<String, Object> bindings;

  MapContext(Map<String, Object> bindings) throws NamingException {
    super(true);
    this.bindings = bindings;
  }

  @Override
  public Object lookup(String name) throws NamingException {
    Object bound = bindings.get(name);
    if (bound == null) throw new NameNotFoundException(name + " is not bound");
    return bound;
  }

  @Override
  public Object lookup(Name name) throws NamingException {
    return lookup(name.toString());
  }

  @Override
  public void bind(String name, Object object) {
    bindings.put(name, object);
  }

  @Override
  public void rebind(String name, Object object) {
    bindings.put(name, object);
  }

  @Override
  public void unbind(String name) {
    bindings.remove(name);
  }

  @Override
  public void close() {
    // The bindings belong to the Admin that made this context, not to the context.
  }

  static Map<String, Object> newBindings() {
    return new ConcurrentHashMap<>();
  }
}
