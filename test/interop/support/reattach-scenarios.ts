import { HornetQQueue, Session, type FailoverEvent, type HornetQConnection } from '../../../src';
import type { Direction, FaultProxy } from '../../support/fault-proxy';
import { waitFor } from '../../support/test-broker';
import {
  NOTHING_MORE_MS,
  queueRef,
  RECEIVE_MS,
  type ScenarioContext,
  type ScenarioGroup,
} from './scenario-context';

/** Messages sent across a broken link; the fault strikes after a third of them. */
const COUNT = 150;
const FAULT_AT = Math.floor(COUNT / 3);

/**
 * How many bytes of a frame the mid-frame cut lets through: past the 13-byte frame header (length,
 * type, channel), short of the end of any frame these scenarios send (a SESS_SEND or
 * SESS_RECEIVE_MSG of a text message with a property is well over 100 bytes).
 */
const PARTIAL_FRAME_BYTES = 20;

/**
 * Black-hole detection: our client pings every half second and gives the link 3 s of silence.
 * Generous against a loaded machine (the server echoes each ping within milliseconds normally),
 * short enough for a test.
 */
const BLACK_HOLE_LIVENESS = { clientFailureCheckPeriod: 500, connectionTTL: 3000 } as const;
/**
 * The server's connection-ttl-override: how long it keeps a broken link's sessions for a reattach.
 * Without it the server takes our client's 3 s TTL (from its pings), and whether a black-holed
 * link's sessions are still there when the client is back becomes a race with the server's TTL check.
 */
export const SERVER_CONNECTION_TTL_MS = 60_000;

/** How long the link stays quiet before a mid-frame cut is armed: then the next frame is cut. */
const QUIET_MS = 300;

interface Fault {
  readonly name: string;
  /** Client settings the fault needs beyond the reattach settings. */
  readonly liveness?: typeof BLACK_HOLE_LIVENESS;
  /** Whether the link must be idle in `direction` when the fault strikes (so a frame starts after it). */
  readonly needsQuietLink?: boolean;
  /**
   * Breaks the link (it heals, proxy.pass(), as soon as our client notices); returns what the
   * scenario checks at its end: that the proxy did break the link as this fault says.
   */
  strike(proxy: FaultProxy, direction: Direction): () => void;
}

const relayed = (proxy: FaultProxy, direction: Direction): number =>
  direction === 'toServer' ? proxy.bytesToServer : proxy.bytesToClient;

const FAULTS: readonly Fault[] = [
  {
    name: 'reset (RST)',
    strike: (proxy) => {
      expect(proxy.cut()).toBe(1);
      return () => expect(proxy.linksReset).toBe(1);
    },
  },
  {
    name: 'black-holed (silent, no FIN or RST)',
    liveness: BLACK_HOLE_LIVENESS,
    strike: (proxy) => {
      proxy.blackHole();
      return () => {
        expect(proxy.linksReset).toBe(0);
        expect(proxy.bytesDropped).toBeGreaterThan(0);
      };
    },
  },
  {
    name: 'cut in the middle of a frame',
    needsQuietLink: true,
    strike: (proxy, direction) => {
      const before = relayed(proxy, direction);
      let throughBeforeReset = -1;
      proxy.once('reset', () => {
        throughBeforeReset = relayed(proxy, direction) - before;
        // The mode would cut every new link too: normal relay from the moment this one is reset.
        proxy.pass();
      });
      proxy.cutAfterBytes(PARTIAL_FRAME_BYTES, direction);
      return () => {
        expect(proxy.linksReset).toBe(1);
        expect(throughBeforeReset).toBe(PARTIAL_FRAME_BYTES);
      };
    },
  },
];

/** The link is reset mid-frame only if a frame starts after the fault: wait for the link to idle. */
async function quiet(proxy: FaultProxy, direction: Direction): Promise<void> {
  const bytes = (): number => relayed(proxy, direction);
  let last = bytes();
  let since = Date.now();
  await proxy.waitUntil(
    () => {
      if (bytes() !== last) {
        last = bytes();
        since = Date.now();
      }
      return Date.now() - since >= QUIET_MS;
    },
    RECEIVE_MS,
    `the link to idle ${direction}`,
  );
}

const FAILOVER_BY_REATTACH = [
  ['FAILURE_DETECTED', undefined],
  ['FAILOVER_COMPLETED', true],
];

/**
 * The headline (issue 13, item 5): with confirmation-window-size 1 MiB, the link between our
 * client and the real server breaks while messages flow, one way or the other, in each way a
 * network breaks; the session reattaches (the server still has it: no re-creation) and nothing is
 * lost, duplicated or reordered.
 */
export const reattachScenarios: ScenarioGroup = {
  server: { queues: FAULTS.flatMap((_, index) => [`reattachSend${index}`, `reattachReceive${index}`]) },
  define(context: ScenarioContext): void {
    /** Our client through a fault proxy, set up to reattach; the proxy heals once the client noticed. */
    const reattachingConnection = async (
      fault: Fault,
    ): Promise<{ connection: HornetQConnection; proxy: FaultProxy; failovers: FailoverEvent[] }> => {
      const proxy = await context.faultProxy();
      const connection = await context.nodeConnection(proxy.port, (factory) => {
        factory.setConfirmationWindowSize(1024 * 1024);
        factory.setReconnectAttempts(-1);
        factory.setRetryInterval(100);
        factory.setRetryIntervalMultiplier(1);
        // A small consumer window, so that deliveries are still flowing when the link breaks.
        factory.setConsumerWindowSize(1024);
        if (fault.liveness !== undefined) {
          factory.setClientFailureCheckPeriod(fault.liveness.clientFailureCheckPeriod);
          factory.setConnectionTTL(fault.liveness.connectionTTL);
        }
      });
      const failovers: FailoverEvent[] = [];
      connection.setFailoverListener((event) => {
        failovers.push(event);
        if (event.type === 'FAILURE_DETECTED') proxy.pass();
      });
      return { connection, proxy, failovers };
    };

    const expectReattached = async (failovers: FailoverEvent[]): Promise<void> => {
      await waitFor(() => failovers.length >= 2, 'the failover to complete', 30_000);
      expect(failovers.map((event) => [event.type, event.reattached])).toEqual(FAILOVER_BY_REATTACH);
    };

    FAULTS.forEach((fault, index) => {
      test(`our producer's link to the server is ${fault.name} mid-stream: it reattaches, nothing lost, duplicated or reordered`, async () => {
        const queue = `reattachSend${index}`;
        const java = context.java();
        const javaConsumer = await java.createConsumer(await context.javaSession(), queueRef(queue));
        const { connection, proxy, failovers } = await reattachingConnection(fault);
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const producer = await session.createProducer(new HornetQQueue(queue));
        let verify = (): void => undefined;
        for (let seq = 0; seq < COUNT; seq++) {
          // Persistent sends block for their answer: between two of them the link is idle.
          if (seq === FAULT_AT) verify = fault.strike(proxy, 'toServer');
          const message = session.createTextMessage(`m${seq}`);
          message.setIntProperty('seq', seq);
          await producer.send(message);
        }
        const received = await java.receiveMany(javaConsumer, COUNT, RECEIVE_MS);
        expect(await java.receive(javaConsumer, NOTHING_MORE_MS)).toBeNull();
        expect(received.map((message) => message.body)).toEqual(
          Array.from({ length: COUNT }, (_, seq) => `m${seq}`),
        );
        await expectReattached(failovers);
        verify();
      });

      test(`our consumer's link to the server is ${fault.name} mid-stream: it reattaches, nothing lost, duplicated or reordered`, async () => {
        const queue = `reattachReceive${index}`;
        await context
          .java()
          .send(
            await context.javaSession(),
            queueRef(queue),
            { class: 'TextMessage', body: 'from java' },
            { count: COUNT, sequenceProperty: 'seq' },
          );
        const { connection, proxy, failovers } = await reattachingConnection(fault);
        const session = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        const consumer = await session.createConsumer(new HornetQQueue(queue));
        const sequence: number[] = [];
        let verify = (): void => undefined;
        while (sequence.length < COUNT) {
          if (sequence.length === FAULT_AT) {
            // Unconsumed, the window fills and the server stops: the next frame comes after the fault.
            if (fault.needsQuietLink === true) await quiet(proxy, 'toClient');
            verify = fault.strike(proxy, 'toClient');
          }
          const message = await consumer.receive(RECEIVE_MS);
          if (message === null) break;
          sequence.push(message.getIntProperty('seq'));
        }
        expect(await consumer.receive(NOTHING_MORE_MS)).toBeNull();
        expect(sequence).toEqual(Array.from({ length: COUNT }, (_, seq) => seq));
        await expectReattached(failovers);
        verify();
      });
    });
  },
};
