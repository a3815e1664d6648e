package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hornetq.api.core.HornetQBuffer;
import org.hornetq.api.core.HornetQException;
import org.hornetq.api.core.HornetQExceptionType;
import org.hornetq.api.core.Pair;
import org.hornetq.api.core.SimpleString;
import org.hornetq.api.core.TransportConfiguration;
import org.hornetq.core.message.impl.MessageImpl;
import org.hornetq.core.protocol.core.impl.PacketImpl;
import org.hornetq.core.protocol.core.impl.wireformat.*;
import org.hornetq.core.server.QueueQueryResult;

/**
 * One instance of every packet of src/core/protocol/packets.ts that HornetQ 2.4 has, encoded by
 * HornetQ's own packet classes. Each vector gives the packet as our Packet object (field names and
 * type numbers of packets.ts) beside the whole frame HornetQ wrote (length, type, channel, body).
 * Strings take every branch of HornetQ's three-way String (under 9 chars, under 4095, longer).
 */
final class PacketVectors {
  private final ArrayNode vectors = TaggedJson.NODES.arrayNode();

  static ArrayNode all() {
    PacketVectors out = new PacketVectors();
    out.control();
    out.sessionSetUp();
    out.topology();
    out.queues();
    out.consumers();
    out.transactions();
    out.messages();
    out.credits();
    out.metadata();
    return out.vectors;
  }

  private void control() {
    add("PING", 0, new Ping(60_000), spec(10).put("connectionTtl", 60_000));
    add("DISCONNECT with a node id", 0, new DisconnectMessage(new SimpleString(NODE_ID)), spec(11).put("nodeId", NODE_ID));
    add("DISCONNECT without a node id", 0, new DisconnectMessage(null), spec(11).putNull("nodeId"));
    add("DISCONNECT_CONSUMER", 10, new DisconnectConsumerMessage(7), spec(12).put("consumerId", 7));
    String text = "queue jms.queue.missing does not exist";
    add("EXCEPTION", 10, new HornetQExceptionMessage(new HornetQException(HornetQExceptionType.QUEUE_DOES_NOT_EXIST, text)),
        spec(20).put("code", "QUEUE_DOES_NOT_EXIST").put("message", text));
    add("EXCEPTION without a message", 10, new HornetQExceptionMessage(new HornetQException(HornetQExceptionType.ADDRESS_FULL, null)),
        spec(20).put("code", "ADDRESS_FULL").putNull("message"));
    add("NULL_RESPONSE", 10, new NullResponseMessage(), spec(21));
    add("PACKETS_CONFIRMED", 10, new PacketsConfirmedMessage(123_456), spec(22).put("commandId", 123_456));
  }

  private void sessionSetUp() {
    String name = "8f0a7c1e-2b3d-11ef-9a4b-0242ac120002";
    String password = Strings.pattern(4100);
    add("CREATESESSION", 1,
        new CreateSessionMessage(name, 10, 124, "guest", password, 102_400, false, true, true, false, 1_048_576, null),
        spec(30).put("name", name).put("sessionChannelId", 10).put("version", 124).put("username", "guest")
            .put("password", password).put("minLargeMessageSize", 102_400).put("xa", false).put("autoCommitSends", true)
            .put("autoCommitAcks", true).put("windowSize", 1_048_576).put("preAcknowledge", false).putNull("defaultAddress")
            .putNull("extension"));
    add("CREATESESSION, xa, no credentials, a default address", 1,
        new CreateSessionMessage("s", 11, 123, null, null, 1024, true, false, false, true, -1, "jms.queue.default"),
        spec(30).put("name", "s").put("sessionChannelId", 11).put("version", 123).putNull("username").putNull("password")
            .put("minLargeMessageSize", 1024).put("xa", true).put("autoCommitSends", false).put("autoCommitAcks", false)
            .put("windowSize", -1).put("preAcknowledge", true).put("defaultAddress", "jms.queue.default").putNull("extension"));
    add("CREATESESSION_RESP", 1, new CreateSessionResponseMessage(124), spec(31).put("serverVersion", 124).putNull("extension"));
    add("REATTACH_SESSION", 1, new ReattachSessionMessage(name, 41),
        spec(32).put("name", name).put("lastConfirmedCommandId", 41).putNull("extension"));
    add("REATTACH_SESSION_RESP", 1, new ReattachSessionResponseMessage(40, true),
        spec(33).put("lastConfirmedCommandId", 40).put("reattached", true));
    add("REATTACH_SESSION_RESP refused", 1, new ReattachSessionResponseMessage(-1, false),
        spec(33).put("lastConfirmedCommandId", -1).put("reattached", false));
  }

  private void topology() {
    add("SUBSCRIBE_TOPOLOGY", 0, new SubscribeClusterTopologyUpdatesMessage(false), spec(112).put("clusterConnection", false));
    add("SUBSCRIBE_TOPOLOGY_V2", 0, new SubscribeClusterTopologyUpdatesMessageV2(false, 124),
        spec(113).put("clusterConnection", false).put("clientVersion", 124));
    long eventId = 1_700_000_000_456L;
    add("CLUSTER_TOPOLOGY_V2, not clustered (what a lone server answers)", 0,
        new ClusterTopologyChangeMessage_V2(eventId, NODE_ID, "hornetq-node", new Pair<>(null, null), true),
        topologySpec(114, false, eventId, null, true, "hornetq-node"));
    TransportConfiguration live = connector();
    add("CLUSTER_TOPOLOGY_V2 with a live connector", 0,
        new ClusterTopologyChangeMessage_V2(eventId, NODE_ID, null, new Pair<>(live, null), false),
        topologySpec(114, false, eventId, live, false, null));
    add("CLUSTER_TOPOLOGY_V2, a node leaves", 0, new ClusterTopologyChangeMessage_V2(eventId, NODE_ID),
        topologySpec(114, true, eventId, null, false, null));
    add("CLUSTER_TOPOLOGY (V1)", 0, new ClusterTopologyChangeMessage(NODE_ID, new Pair<>(live, null), true),
        topologySpec(110, false, 0, live, true, null));
  }

  private void queues() {
    add("CREATE_QUEUE", 10,
        new CreateQueueMessage(ss("jms.topic.news"), ss("client.sub"), ss("colour = 'red'"), true, false, true),
        spec(34).put("address", "jms.topic.news").put("queueName", "client.sub").put("filter", "colour = 'red'")
            .put("durable", true).put("temporary", false).put("requiresResponse", true));
    add("CREATE_QUEUE temporary, no filter", 10,
        new CreateQueueMessage(ss("jms.tempqueue.t"), ss("jms.tempqueue.t"), null, false, true, false),
        spec(34).put("address", "jms.tempqueue.t").put("queueName", "jms.tempqueue.t").putNull("filter")
            .put("durable", false).put("temporary", true).put("requiresResponse", false));
    add("DELETE_QUEUE", 10, new SessionDeleteQueueMessage(ss("jms.tempqueue.t")), spec(35).put("queueName", "jms.tempqueue.t"));
    add("CREATE_SHARED_QUEUE", 10,
        new CreateSharedQueueMessage(ss("jms.topic.news"), ss("shared"), null, true, true),
        spec(36).put("address", "jms.topic.news").put("queueName", "shared").putNull("filter").put("durable", true)
            .put("requiresResponse", true));
    add("SESS_QUEUEQUERY", 10, new SessionQueueQueryMessage(ss("jms.queue.q")), spec(45).put("queueName", "jms.queue.q"));
    add("SESS_QUEUEQUERY_RESP", 10,
        new SessionQueueQueryResponseMessage(new QueueQueryResult(ss("jms.queue.q"), ss("jms.queue.q"), true, false, ss("a > 1"), 2, 300)),
        spec(46).put("exists", true).put("durable", true).put("temporary", false).put("consumerCount", 2)
            .put("messageCount", 300).put("filter", "a > 1").put("address", "jms.queue.q").put("name", "jms.queue.q"));
    add("SESS_QUEUEQUERY_RESP, no such queue", 10, new SessionQueueQueryResponseMessage(new QueueQueryResult()),
        spec(46).put("exists", false).put("durable", false).put("temporary", false).put("consumerCount", 0)
            .put("messageCount", 0).putNull("filter").putNull("address").putNull("name"));
    add("SESS_BINDINGQUERY", 10, new SessionBindingQueryMessage(ss("jms.topic.news")), spec(49).put("address", "jms.topic.news"));
    ObjectNode binding = spec(50).put("exists", true);
    binding.putArray("queueNames").add("jms.topic.news").add("client.sub");
    add("SESS_BINDINGQUERY_RESP", 10,
        new SessionBindingQueryResponseMessage(true, List.of(ss("jms.topic.news"), ss("client.sub"))), binding);
  }

  private void consumers() {
    add("SESS_CREATECONSUMER", 10, new SessionCreateConsumerMessage(3, ss("jms.queue.q"), ss("HQPriority > 4"), false, true),
        spec(40).put("consumerId", 3).put("queueName", "jms.queue.q").put("filter", "HQPriority > 4")
            .put("browseOnly", false).put("requiresResponse", true));
    add("SESS_CREATECONSUMER browser, no filter", 10, new SessionCreateConsumerMessage(4, ss("jms.queue.q"), null, true, false),
        spec(40).put("consumerId", 4).put("queueName", "jms.queue.q").putNull("filter").put("browseOnly", true)
            .put("requiresResponse", false));
    add("SESS_ACKNOWLEDGE", 10, new SessionAcknowledgeMessage(3, 9_000_000_001L, true),
        spec(41).put("consumerId", 3).put("messageId", 9_000_000_001L).put("requiresResponse", true));
    add("SESS_INDIVIDUAL_ACKNOWLEDGE", 10, new SessionIndividualAcknowledgeMessage(3, 17, false),
        spec(81).put("consumerId", 3).put("messageId", 17).put("requiresResponse", false));
    add("SESS_EXPIRED", 10, new SessionExpireMessage(3, 18), spec(42).put("consumerId", 3).put("messageId", 18));
    add("SESS_START", 10, new PacketImpl(PacketImpl.SESS_START), spec(67));
    add("SESS_STOP", 10, new PacketImpl(PacketImpl.SESS_STOP), spec(68));
    add("SESS_CLOSE", 10, new SessionCloseMessage(), spec(69));
    add("SESS_FLOWTOKEN", 10, new SessionConsumerFlowCreditMessage(3, 65_536), spec(70).put("consumerId", 3).put("credits", 65_536));
    add("SESS_CONSUMER_CLOSE", 10, new SessionConsumerCloseMessage(3), spec(74).put("consumerId", 3));
    add("SESS_FORCE_CONSUMER_DELIVERY", 10, new SessionForceConsumerDelivery(3, 5), spec(78).put("consumerId", 3).put("sequence", 5));
  }

  private void transactions() {
    add("SESS_COMMIT", 10, new SessionCommitMessage(), spec(43));
    add("SESS_ROLLBACK", 10, new RollbackMessage(false), spec(44).put("considerLastMessageAsDelivered", false));
    add("SESS_ROLLBACK considering the last message delivered", 10, new RollbackMessage(true),
        spec(44).put("considerLastMessageAsDelivered", true));
  }

  private void messages() {
    MessageSpec plain = new MessageSpec();
    plain.body = "hello".getBytes(StandardCharsets.US_ASCII);
    MessageImpl built = plain.build();
    ObjectNode send = spec(71);
    send.set("message", plain.describe(built));
    add("SESS_SEND, no properties, no user id", 10, new SessionSendMessage(built, true, null), send.put("requiresResponse", true));

    MessageSpec full = everyPropertyType();
    built = full.build();
    send = spec(71);
    send.set("message", full.describe(built));
    add("SESS_SEND, properties of every type", 10, new SessionSendMessage(built, false, null), send.put("requiresResponse", false));

    MessageSpec delivered = everyPropertyType();
    delivered.messageId = 4_294_967_301L;
    built = delivered.build();
    ObjectNode receive = spec(75);
    receive.set("message", delivered.describe(built));
    add("SESS_RECEIVE_MSG", 10, new SessionReceiveMessage(3, built, 2), receive.put("consumerId", 3).put("deliveryCount", 2));

    MessageSpec head = everyPropertyType();
    head.body = new byte[0];
    built = head.build();
    ObjectNode large = spec(72);
    large.set("message", head.describe(built));
    add("SESS_SEND_LARGE", 10, new SessionSendLargeMessage(built), large);

    byte[] chunk = "first chunk".getBytes(StandardCharsets.US_ASCII);
    add("SESS_SEND_CONTINUATION, more to come", 10, new SessionSendContinuationMessage(built, chunk, true, false, null),
        spec(73).<ObjectNode>set("chunk", TaggedJson.bytes(chunk)).put("continues", true).put("messageBodySize", -1)
            .put("requiresResponse", false));
    add("SESS_SEND_CONTINUATION, the last", 10, new SessionSendContinuationMessage(built, chunk, false, true, 204_800, null),
        spec(73).<ObjectNode>set("chunk", TaggedJson.bytes(chunk)).put("continues", false).put("messageBodySize", 204_800)
            .put("requiresResponse", true));

    MessageSpec receivedHead = everyPropertyType();
    receivedHead.messageId = 77;
    receivedHead.body = new byte[0];
    built = receivedHead.build();
    ObjectNode receiveLarge = spec(76).put("consumerId", 3).put("deliveryCount", 1).put("largeMessageSize", 204_800);
    receiveLarge.set("message", receivedHead.describe(built));
    add("SESS_RECEIVE_LARGE_MSG", 10, new SessionReceiveLargeMessage(3, built, 204_800, 1), receiveLarge);
    add("SESS_RECEIVE_CONTINUATION", 10, new SessionReceiveContinuationMessage(3, chunk, true, false),
        spec(77).<ObjectNode>set("chunk", TaggedJson.bytes(chunk)).put("continues", true).put("consumerId", 3));
  }

  private void credits() {
    add("SESS_PRODUCER_REQUEST_CREDITS", 10, new SessionRequestProducerCreditsMessage(65_536, ss("jms.queue.q")),
        spec(79).put("credits", 65_536).put("address", "jms.queue.q"));
    add("SESS_PRODUCER_CREDITS", 10, new SessionProducerCreditsMessage(65_536, ss("jms.queue.q")),
        spec(80).put("credits", 65_536).put("address", "jms.queue.q"));
    add("SESS_PRODUCER_FAIL_CREDITS", 10, new SessionProducerCreditsFailMessage(1024, ss("jms.queue.full")),
        spec(82).put("credits", 1024).put("address", "jms.queue.full"));
  }

  private void metadata() {
    add("SESS_ADD_METADATA", 10, new SessionAddMetaDataMessage("jms-session", ""), spec(104).put("key", "jms-session").put("data", ""));
    add("SESS_ADD_METADATA2", 10, new SessionAddMetaDataMessageV2("jms-session", "", true),
        spec(105).put("key", "jms-session").put("data", "").put("requiresConfirmation", true));
    String clientId = "client-id-of-nine-plus";
    add("SESS_ADD_METADATA2 uncounted (re-sent after a re-create)", 10, new SessionAddMetaDataMessageV2("jms-client-id", clientId, false),
        spec(105).put("key", "jms-client-id").put("data", clientId).put("requiresConfirmation", false));
    add("SESS_UNIQUE_ADD_METADATA", 10, new SessionUniqueAddMetaDataMessage("jms-client-id", clientId),
        spec(106).put("key", "jms-client-id").put("data", clientId).put("requiresConfirmation", true));
  }

  /** Properties of every TypedProperties type, with the edge values of each. */
  static MessageSpec everyPropertyType() {
    MessageSpec message = new MessageSpec();
    message.type = 3;
    message.durable = true;
    message.expiration = 1_700_000_060_000L;
    message.priority = 9;
    message.userId = new byte[] {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x11, (byte) 0xef, (byte) 0x9a, 0x4b, 0x02, 0x42, (byte) 0xac, 0x12, 0x00, 0x02};
    message.body = new byte[] {1, 0, 0, 0, 4, 'h', 0, 'i', 0};
    Map<String, Object> p = message.properties;
    p.put("null", null);
    p.put("true", true);
    p.put("false", false);
    p.put("byte", (byte) -128);
    p.put("bytes", new byte[] {0, 1, (byte) 0xfe, (byte) 0xff});
    p.put("emptyBytes", new byte[0]);
    p.put("short", (short) -32768);
    p.put("int", Integer.MIN_VALUE);
    p.put("long", 1_700_000_000_000L);
    p.put("longMax", Long.MAX_VALUE);
    p.put("longMin", Long.MIN_VALUE);
    p.put("float", 1.5f);
    p.put("floatNaN", Float.NaN);
    p.put("double", -0.1);
    p.put("doubleInfinity", Double.POSITIVE_INFINITY);
    p.put("string", "d\u00e9j\u00e0 \ud83d\ude00 \u0000\u007f");
    p.put("emptyString", "");
    p.put("char", '\u20ac');
    p.put("loneSurrogateChar", '\ud800');
    p.put("JMSCorrelationID", "corr-1");
    p.put("JMSType", "vector");
    p.put("JMSReplyTo", "jms.queue.replies");
    p.put("_HQ_GROUP_ID", "group-1");
    p.put("__HQ_CID", "b2c1a4f0-2b3d-11ef-9a4b-0242ac120002");
    return message;
  }

  private static final String NODE_ID = "6a1f2d3c-2b3d-11ef-9a4b-0242ac120002";

  private static TransportConfiguration connector() {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("host", "127.0.0.1");
    params.put("port", 5445);
    params.put("use-nio", true);
    params.put("batch-delay", 0L);
    return new TransportConfiguration("org.hornetq.core.remoting.impl.netty.NettyConnectorFactory", params, "netty");
  }

  private static ObjectNode topologySpec(int type, boolean exit, long eventId, TransportConfiguration live, boolean last, String nodeName) {
    ObjectNode spec = spec(type).put("exit", exit).put("nodeId", NODE_ID);
    spec.set("uniqueEventId", TaggedJson.longValue(eventId));
    spec.set("live", live == null ? TaggedJson.NODES.nullNode() : describe(live));
    spec.putNull("backup");
    spec.put("last", last);
    spec.set("nodeName", TaggedJson.string(nodeName));
    return spec;
  }

  /** Our TransportConfiguration, params in the order HornetQ encodes them (its map's order). */
  private static ObjectNode describe(TransportConfiguration config) {
    ObjectNode out = TaggedJson.object().put("name", config.getName()).put("factoryClassName", config.getFactoryClassName());
    ArrayNode params = out.putArray("params");
    for (Map.Entry<String, Object> param : config.getParams().entrySet()) {
      ObjectNode typed = TaggedJson.object();
      Object value = param.getValue();
      if (value instanceof Boolean b) typed.put("type", "boolean").put("value", b);
      else if (value instanceof Integer i) typed.put("type", "int").put("value", i);
      else if (value instanceof Long l) typed.put("type", "long").put("value", l);
      else typed.put("type", "string").put("value", value.toString());
      params.addArray().add(param.getKey()).add(typed);
    }
    return out;
  }

  private static ObjectNode spec(int type) {
    return TaggedJson.object().put("type", type);
  }

  private static SimpleString ss(String text) {
    return new SimpleString(text);
  }

  private void add(String name, long channelId, PacketImpl packet, ObjectNode ours) {
    if (packet.getType() != ours.get("type").asInt()) {
      throw new IllegalStateException(name + ": HornetQ's type " + packet.getType() + " is not ours " + ours.get("type"));
    }
    packet.setChannelID(channelId);
    HornetQBuffer frame = packet.encode(EncodingConnection.INSTANCE);
    ObjectNode vector = vectors.addObject();
    vector.put("name", name);
    vector.put("channelId", channelId);
    vector.set("packet", ours);
    vector.put("hex", TaggedJson.hex(frame, 0));
  }
}
