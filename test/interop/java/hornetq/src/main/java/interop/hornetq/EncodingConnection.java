package interop.hornetq;

import java.lang.reflect.Proxy;
import org.hornetq.api.core.HornetQBuffers;
import org.hornetq.spi.core.protocol.RemotingConnection;

/**
 * The one thing a packet's encode() asks of its connection is a buffer to write into; this stands
 * in for a connection so HornetQ's own encode code runs unchanged, without any socket.
 */
final class EncodingConnection {
  private EncodingConnection() {}

  static final RemotingConnection INSTANCE =
      (RemotingConnection)
          Proxy.newProxyInstance(
              EncodingConnection.class.getClassLoader(),
              new Class<?>[] {RemotingConnection.class},
              (proxy, method, args) -> {
                if (method.getName().equals("createTransportBuffer")) {
                  return HornetQBuffers.dynamicBuffer((Integer) args[0]);
                }
                if (method.getName().equals("toString")) return "EncodingConnection";
                throw new UnsupportedOperationException("encoding needs no " + method.getName());
              });
}
