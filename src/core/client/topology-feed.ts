import { PacketType } from '../protocol/packet-type';
import type { ClusterTopologyChange } from '../protocol/packets';
import type { TransportConfiguration } from './connector';
import {
  endpointFromAnnounced,
  endpointFromConnector,
  type Topology,
  type TopologyEndpoint,
  type TopologyEvent,
} from './topology';

/**
 * Merges one CLUSTER_TOPOLOGY (110) or CLUSTER_TOPOLOGY_V2 (114) into `topology`, as HornetQ's
 * client does on channel 0. Artemis answers a version-124 client with V2 as well (V3 and V4 go to
 * 125 and 131 and up only). A member announced with neither live nor backup (what a broker that
 * is not clustered sends) is reached through `connectorUsed`, the connector this connection used.
 */
export function applyTopologyChange(
  topology: Topology,
  change: ClusterTopologyChange,
  connectorUsed: TransportConfiguration,
): TopologyEvent | null {
  const uniqueEventId =
    change.type === PacketType.CLUSTER_TOPOLOGY_V2
      ? change.uniqueEventId
      : nextLocalEventId(topology, change.nodeId);
  if (change.exit) return topology.remove(change.nodeId, uniqueEventId);
  const announcesNothing = change.live === null && change.backup === null;
  return topology.update({
    nodeId: change.nodeId,
    uniqueEventId,
    nodeName: change.nodeName,
    live: announcesNothing ? endpointFromConnector(connectorUsed) : optionalEndpoint(change.live),
    backup: optionalEndpoint(change.backup),
  });
}

/**
 * A DISCONNECT naming a node: the server is shutting down, so the node goes. HornetQ stamps the
 * removal with the client's clock, which a restarted server's next "up" (stamped with the server's
 * clock) can be behind; one past the member's own event id orders it after what that server said
 * and before anything it says next.
 */
export function applyDisconnect(topology: Topology, nodeId: string): TopologyEvent | null {
  const known = topology.member(nodeId);
  return known === null ? null : topology.remove(nodeId, known.uniqueEventId + 1);
}

/**
 * V1 carries no event id: HornetQ takes the client's clock. It arrives in order on one connection,
 * so it must also come after whatever is known of the node, whatever that clock says.
 */
function nextLocalEventId(topology: Topology, nodeId: string): number {
  return Math.max(Date.now(), (topology.lastEventIdOf(nodeId) ?? 0) + 1);
}

function optionalEndpoint(announced: ClusterTopologyChange['live']): TopologyEndpoint | null {
  return announced === null ? null : endpointFromAnnounced(announced);
}
