package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Method;
import java.util.Iterator;
import java.util.Map;
import org.hornetq.jms.client.HornetQConnectionFactory;

/**
 * Applies {@code {confirmationWindowSize: 1048576, reconnectAttempts: -1, ...}} to a HornetQ
 * connection factory through its own setters (setConfirmationWindowSize, setReconnectAttempts, ...),
 * so the driver takes every factory setting HornetQ's hornetq-jms.xml knows, by the same names.
 * Only setters of HornetQConnectionFactory with one int, long, double, boolean or String parameter.
 */
final class FactorySettings {
  private FactorySettings() {}

  static void apply(HornetQConnectionFactory factory, JsonNode settings) throws ReflectiveOperationException {
    for (Iterator<Map.Entry<String, JsonNode>> it = settings.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> setting = it.next();
      Method setter = setterFor(setting.getKey());
      setter.invoke(factory, convert(setting.getKey(), setter.getParameterTypes()[0], setting.getValue()));
    }
  }

  private static Method setterFor(String name) {
    if (name.isEmpty()) throw new IllegalArgumentException("a factory setting needs a name");
    String setterName = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    for (Method method : HornetQConnectionFactory.class.getMethods()) {
      if (method.getName().equals(setterName) && method.getParameterCount() == 1 && settable(method.getParameterTypes()[0])) {
        return method;
      }
    }
    throw new IllegalArgumentException("HornetQConnectionFactory has no setting '" + name + "'");
  }

  private static boolean settable(Class<?> type) {
    return type == int.class || type == long.class || type == double.class || type == boolean.class || type == String.class;
  }

  private static Object convert(String name, Class<?> type, JsonNode value) {
    if (type == int.class && value.canConvertToInt()) return value.intValue();
    if (type == long.class && value.isIntegralNumber()) return value.longValue();
    if (type == double.class && value.isNumber()) return value.doubleValue();
    if (type == boolean.class && value.isBoolean()) return value.booleanValue();
    if (type == String.class && (value.isTextual() || value.isNull())) return value.isNull() ? null : value.asText();
    throw new IllegalArgumentException("factory setting '" + name + "' takes a " + type.getSimpleName() + ", got " + value);
  }
}
