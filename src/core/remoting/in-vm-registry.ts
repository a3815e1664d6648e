import { HornetQException } from '../protocol/hornetq-exception';
import { InVmTransport } from './in-vm-transport';

type AcceptHandler = (transport: InVmTransport) => void;

const acceptors = new Map<number, AcceptHandler>();
let links = 0;

/**
 * In-VM acceptors of this process by server id (HornetQ's `server-id` param), so an embedded
 * client reaches an embedded broker without sockets.
 */
export const InVmRegistry = {
  register(serverId: number, accept: AcceptHandler): void {
    if (acceptors.has(serverId))
      throw new HornetQException(
        'ILLEGAL_STATE',
        `an in-VM acceptor with server-id ${serverId} is already started`,
      );
    acceptors.set(serverId, accept);
  },

  unregister(serverId: number): void {
    acceptors.delete(serverId);
  },

  /** A new link to the acceptor; throws when no broker in this process listens on that id. */
  connect(serverId: number): InVmTransport {
    const accept = acceptors.get(serverId);
    if (accept === undefined)
      throw new HornetQException(
        'NOT_CONNECTED',
        `no in-VM acceptor with server-id ${serverId} in this process`,
      );
    const [client, server] = InVmTransport.pair(`${serverId}#${++links}`);
    accept(server);
    return client;
  },
};
