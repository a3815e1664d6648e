package interop.hornetq;

import com.fasterxml.jackson.databind.node.ObjectNode;
import javax.jms.JMSException;

/** A Java failure as the driver reports it: the exception's class and message, and its causes. */
final class DriverErrors {
  private static final int MAX_CAUSES = 5;

  private DriverErrors() {}

  static ObjectNode describe(Throwable error) {
    ObjectNode out = one(error);
    ObjectNode last = out;
    Throwable cause = causeOf(error);
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = causeOf(cause)) {
      ObjectNode next = one(cause);
      last.set("cause", next);
      last = next;
    }
    return out;
  }

  private static ObjectNode one(Throwable error) {
    ObjectNode out = TaggedJson.object().put("class", error.getClass().getName());
    out.set("message", TaggedJson.string(error.getMessage()));
    if (error instanceof JMSException jms && jms.getErrorCode() != null) out.put("errorCode", jms.getErrorCode());
    return out;
  }

  private static Throwable causeOf(Throwable error) {
    Throwable cause = error instanceof JMSException jms && jms.getLinkedException() != null ? jms.getLinkedException() : error.getCause();
    return cause == error ? null : cause;
  }
}
