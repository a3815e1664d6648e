import { PacketType } from '../../../src/core/protocol';
import type { Broker } from '../../../src/server/broker';
import { RAW_SESSION_CHANNEL, RawClient } from '../../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * A reattach whose last confirmed id our broker cannot account for (the client claims packets the
 * broker never sent it): nothing can be replayed to it, so the broker closes the session and
 * answers "not reattached", and the client creates it again (issue 25). Real broker, real TCP.
 */

const env = useTestBrokers();

async function detachedSession(broker: Broker, name: string): Promise<void> {
  const owner = env.track(await RawClient.connect(broker.getPort()));
  await owner.createSession(RAW_SESSION_CHANNEL, { name, windowSize: 64 * 1024 });
  await owner.close();
  await waitFor(
    () => broker.listConnections().some((connection) => connection.sessionCount === 1),
    'the broker to keep the detached session',
  );
}

function reattach(client: RawClient, name: string, lastConfirmedCommandId: number) {
  return client.request(1, {
    type: PacketType.REATTACH_SESSION,
    name,
    lastConfirmedCommandId,
    extension: null,
  });
}

describe('our broker and a reattach id it cannot account for', () => {
  it('a client claiming packets never sent: the session is closed and the client told to create it again, with one log line', async () => {
    const logger = new CapturingLogger();
    const broker = await env.startBroker({ logger });
    await detachedSession(broker, 'claims-too-much');
    const client = env.track(await RawClient.connect(broker.getPort()));
    // The broker sent this session nothing that counts: any id above -1 is a claim beyond.
    expect(await reattach(client, 'claims-too-much', 7)).toEqual({
      type: PacketType.REATTACH_SESSION_RESP,
      lastConfirmedCommandId: -1,
      reattached: false,
    });
    await waitFor(
      () => broker.listConnections().every((connection) => connection.sessionCount === 0),
      'the session to be closed',
    );
    expect(logger.find(/does not match what was sent/, ['warn'])).toHaveLength(1);
    // It is gone: a second attempt finds nothing to reattach.
    expect(await reattach(client, 'claims-too-much', -1)).toMatchObject({ reattached: false });
  });

  it('a client that has what was sent reattaches as before', async () => {
    const broker = await env.startBroker();
    await detachedSession(broker, 'in-step');
    const client = env.track(await RawClient.connect(broker.getPort()));
    expect(await reattach(client, 'in-step', -1)).toMatchObject({ reattached: true });
  });
});
