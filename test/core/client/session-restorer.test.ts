import { SessionRestorer, type QueueToRestore } from '../../../src/core/client/session-restorer';
import { HornetQException, type Packet, type ResponsePacket } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';

const NULL_RESPONSE: ResponsePacket = { type: PacketType.NULL_RESPONSE };

/** Records, in order, every call, one-way packet and credit step the restorer makes. */
class Session {
  readonly log: string[] = [];
  /** Queue names whose creation the broker answers with QUEUE_EXISTS. */
  readonly existing = new Set<string>();

  readonly calls = {
    callWithinTimeout: (packet: Packet): Promise<ResponsePacket> => {
      if (packet.type === PacketType.CREATE_QUEUE) {
        this.log.push(`create-queue ${packet.queueName}`);
        if (this.existing.has(packet.queueName)) {
          return Promise.reject(new HornetQException('QUEUE_EXISTS', packet.queueName));
        }
      } else if (packet.type === PacketType.CREATE_SHARED_QUEUE) {
        this.log.push(`create-shared-queue ${packet.queueName} durable=${String(packet.durable)}`);
        if (this.existing.has(packet.queueName)) {
          return Promise.reject(new HornetQException('INVALID_TRANSIENT_QUEUE_USE', packet.queueName));
        }
      } else if (packet.type === PacketType.SESS_UNIQUE_ADD_METADATA) {
        this.log.push(`metadata ${packet.key}=${packet.data}`);
      }
      return Promise.resolve(NULL_RESPONSE);
    },
  };

  readonly gate = {
    resetCredits: (): void => void this.log.push('reset-credits'),
    requestInitialCredits: (address: string): void => void this.log.push(`credits ${address}`),
  };

  sendOneWay(packet: Packet): void {
    if (packet.type === PacketType.SESS_CREATEPRODUCER) this.log.push(`producer ${packet.producerId}`);
    if (packet.type === PacketType.SESS_ADD_METADATA2) {
      this.log.push(
        `metadata2 ${packet.key}=${packet.data} confirmed=${String(packet.requiresConfirmation)}`,
      );
    }
  }

  restorer(): SessionRestorer {
    return new SessionRestorer(this.calls, (packet) => this.sendOneWay(packet), this.gate);
  }

  consumer(
    id: number,
    queue: QueueToRestore | null,
  ): [number, { queueToRestore(): QueueToRestore | null; recreate(): void }] {
    return [id, { queueToRestore: () => queue, recreate: () => void this.log.push(`consumer ${id}`) }];
  }
}

const TEMPORARY: QueueToRestore = { address: 'tmp', name: 'tmp', filter: null, temporary: true };
const SUBSCRIPTION: QueueToRestore = { address: 'topic', name: 'sub', filter: null, temporary: false };

describe('SessionRestorer', () => {
  it('restores plain metadata, queues, unique metadata, consumers, producers and their credits, in that order', async () => {
    const session = new Session();
    const restorer = session.restorer();
    restorer.uniqueMetadataAdded('jms-client-id', 'c1');
    restorer.metadataAdded('jms-session', '');
    const consumers = new Map([session.consumer(0, SUBSCRIPTION), session.consumer(1, null)]);
    const producers = new Set([
      { id: 0, address: 'q' },
      { id: 1, address: null },
    ]);
    await restorer.restore([TEMPORARY], consumers, producers, true);
    // Metadata before any consumer: Artemis gives a consumer the jms.queue. prefix on what it
    // delivers only if its session already has jms-session when the consumer is created.
    expect(session.log).toEqual([
      'metadata2 jms-session= confirmed=false',
      'create-queue tmp',
      'create-queue sub',
      'metadata jms-client-id=c1',
      'consumer 0',
      'consumer 1',
      'producer 0',
      'producer 1',
      'reset-credits',
      'credits q',
    ]);
  });

  it('towards a broker without our extension, announces no producer but asks for their credits again', async () => {
    const session = new Session();
    await session.restorer().restore([], new Map(), new Set([{ id: 0, address: 'q' }]), false);
    expect(session.log).toEqual(['reset-credits', 'credits q']);
  });

  it('re-sends plain metadata as unanswered ADD_METADATA2 (flag false), as HornetQ does after a re-creation', async () => {
    const session = new Session();
    const restorer = session.restorer();
    restorer.metadataAdded('jms-session', '');
    restorer.metadataAdded('app', 'x');
    restorer.uniqueMetadataAdded('jms-client-id', 'c1');
    await restorer.restore([], new Map([session.consumer(3, null)]), new Set(), false);
    expect(session.log).toEqual([
      'metadata2 jms-session= confirmed=false',
      'metadata2 app=x confirmed=false',
      'metadata jms-client-id=c1',
      'consumer 3',
      'reset-credits',
    ]);
  });

  it("re-creates a shared subscription's queue shared and non-durable (transient), once per consumer; a refusal ends the restore", async () => {
    const session = new Session();
    const shared: QueueToRestore = { ...SUBSCRIPTION, name: 'nonDurable.sub', shared: true };
    const consumers = new Map([session.consumer(0, shared), session.consumer(1, shared)]);
    await session.restorer().restore([], consumers, new Set(), true);
    expect(session.log).toEqual([
      'create-shared-queue nonDurable.sub durable=false',
      'create-shared-queue nonDurable.sub durable=false',
      'consumer 0',
      'consumer 1',
      'reset-credits',
    ]);

    const refused = new Session();
    refused.existing.add('nonDurable.sub');
    await expect(
      refused.restorer().restore([], new Map([refused.consumer(0, shared)]), new Set(), true),
    ).rejects.toMatchObject({ code: 'INVALID_TRANSIENT_QUEUE_USE' });
    expect(refused.log).toEqual(['create-shared-queue nonDurable.sub durable=false']);
  });

  it('a queue the broker still has is not an error; any other failure ends the restore', async () => {
    const session = new Session();
    session.existing.add('tmp');
    await session.restorer().restore([TEMPORARY], new Map(), new Set(), true);
    expect(session.log).toEqual(['create-queue tmp', 'reset-credits']);

    const failing = new Session();
    failing.calls.callWithinTimeout = () =>
      Promise.reject(new HornetQException('CONNECTION_TIMEDOUT', 'no answer'));
    await expect(failing.restorer().restore([TEMPORARY], new Map(), new Set(), true)).rejects.toMatchObject({
      code: 'CONNECTION_TIMEDOUT',
    });
  });
});
