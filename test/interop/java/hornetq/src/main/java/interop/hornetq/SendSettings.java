package interop.hornetq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;

/**
 * What a send command asks of the producer (a MessageProducer's or a JMSProducer's): delivery
 * mode, priority, time to live, delivery delay, and how many copies; and what the driver answers
 * for each message sent.
 */
record SendSettings(int deliveryMode, int priority, long timeToLive, long deliveryDelay, int count, String sequenceProperty) {
  static SendSettings of(JsonNode c) {
    long deliveryDelay = c.path("deliveryDelay").asLong(0);
    if (deliveryDelay < 0) throw new IllegalArgumentException("deliveryDelay must not be negative, got " + deliveryDelay);
    return new SendSettings(
        "NON_PERSISTENT".equals(c.path("deliveryMode").asText()) ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT,
        c.path("priority").asInt(Message.DEFAULT_PRIORITY),
        c.path("timeToLive").asLong(Message.DEFAULT_TIME_TO_LIVE),
        deliveryDelay,
        c.path("count").asInt(1),
        c.path("sequenceProperty").asText(null));
  }

  /** A sent message's id, timestamp, expiration and delivery time as the sending client set them, and how long the send call took. */
  static ObjectNode describeSent(Message message, double sendMs) throws JMSException {
    ObjectNode one = TaggedJson.object().put("JMSMessageID", message.getJMSMessageID());
    one.put("sendMs", sendMs);
    one.set("JMSTimestamp", TaggedJson.longValue(message.getJMSTimestamp()));
    one.set("JMSExpiration", TaggedJson.longValue(message.getJMSExpiration()));
    one.set("JMSDeliveryTime", TaggedJson.longValue(message.getJMSDeliveryTime()));
    return one;
  }
}
