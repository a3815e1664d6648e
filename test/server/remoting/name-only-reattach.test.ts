import { PacketType, type Packet, type ReattachExtension } from '../../../src/core/protocol';
import { Broker } from '../../../src/server/broker';
import type { BrokerConfiguration } from '../../../src/server/broker-configuration';
import { RAW_SESSION_CHANNEL, RawClient, newReattachSecret } from '../../support/raw-client';
import { CapturingLogger, useTestBrokers, waitFor } from '../../support/test-broker';

/**
 * name-only-reattach-enabled (nameOnlyReattachEnabled): a session created without our reattach
 * secret (a HornetQ Java client's, here a raw client sending its packets) is reattached by its name
 * alone while the setting is on (the default, HornetQ's rule), and refused while it is off; a
 * session created with the secret reattaches with it either way. Real broker, real TCP.
 */

const env = useTestBrokers();
/** A window, so that the session keeps a resend buffer and may be reattached. */
const REATTACHABLE = { windowSize: 64 * 1024 };
const REFUSED = { type: PacketType.REATTACH_SESSION_RESP, lastConfirmedCommandId: -1, reattached: false };

async function raw(broker: Broker): Promise<RawClient> {
  return env.track(await RawClient.connect(broker.getPort()));
}

/** A session created on a connection whose link then goes: it waits, detached, for its client. */
async function detachedSession(
  broker: Broker,
  options: { name: string; reattachSecret?: Buffer },
): Promise<number> {
  const owner = await raw(broker);
  await owner.createSession(RAW_SESSION_CHANNEL, { ...REATTACHABLE, ...options });
  const [connection] = broker.listConnections();
  if (connection === undefined) throw new Error('the broker lists no connection');
  await owner.close();
  await waitFor(
    () => broker.listConnections().some((c) => c.id === connection.id && c.sessionCount === 1),
    'the broker to keep the detached session',
  );
  return connection.id;
}

function reattach(
  client: RawClient,
  name: string,
  extension: ReattachExtension | null = null,
): Promise<Packet> {
  return client.request(1, {
    type: PacketType.REATTACH_SESSION,
    name,
    lastConfirmedCommandId: -1,
    extension,
  });
}

/** The id of the connection that now holds the one session on the broker. */
function holderOf(broker: Broker): number | undefined {
  return broker.listConnections().find((connection) => connection.sessionCount === 1)?.id;
}

async function startBroker(
  config: Partial<BrokerConfiguration> = {},
): Promise<{ broker: Broker; logger: CapturingLogger }> {
  const logger = new CapturingLogger();
  return { broker: await env.startBroker({ logger, ...config }), logger };
}

describe('name-only reattach (name-only-reattach-enabled)', () => {
  it('is allowed by default: a plain session is reattached by its name and moves to the new connection', async () => {
    const { broker, logger } = await startBroker();
    expect(broker.nameOnlyReattachEnabled).toBe(true);
    const before = await detachedSession(broker, { name: 'java-session' });
    const client = await raw(broker);
    expect(await reattach(client, 'java-session')).toEqual({ ...REFUSED, reattached: true });
    await waitFor(() => holderOf(broker) !== before, 'the session to move');
    expect(await client.request(RAW_SESSION_CHANNEL, { type: PacketType.SESS_STOP })).toEqual({
      type: PacketType.NULL_RESPONSE,
    });
    expect(logger.find(/name-only-reattach-enabled/)).toEqual([]);
  });

  it('when off, refuses a plain session’s reattach with one log line, leaves the session where it was, and lets its client create it again', async () => {
    const { broker, logger } = await startBroker({ nameOnlyReattachEnabled: false });
    const before = await detachedSession(broker, { name: 'java-session' });
    const client = await raw(broker);
    expect(await reattach(client, 'java-session')).toEqual(REFUSED);
    expect(holderOf(broker)).toBe(before);
    expect(broker.getSessionCount()).toBe(1);
    const lines = logger.find(/refused/, ['warn']);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBe(
      "reattach of session java-session refused: it was created without a reattach secret (a HornetQ Java client's) and name-only-reattach-enabled is false; its client creates it again",
    );

    // What HornetQ's Java client does next: CREATESESSION with the same name; the detached one is closed.
    expect(
      await client.createSession(RAW_SESSION_CHANNEL, { ...REATTACHABLE, name: 'java-session' }),
    ).toMatchObject({
      type: PacketType.CREATESESSION_RESP,
    });
    await waitFor(
      () => broker.getSessionCount() === 1 && holderOf(broker) !== before,
      'the session re-created',
    );
  });

  it.each([true, false])(
    'reattaches a session created with the secret by its secret either way (name-only-reattach-enabled %s), and never by its name alone',
    async (nameOnlyReattachEnabled) => {
      const { broker, logger } = await startBroker({ nameOnlyReattachEnabled });
      const secret = newReattachSecret();
      const before = await detachedSession(broker, { name: 'ours', reattachSecret: secret });
      const intruder = await raw(broker);
      expect(await reattach(intruder, 'ours')).toEqual(REFUSED);
      expect(holderOf(broker)).toBe(before);
      const client = await raw(broker);
      const answer = await reattach(client, 'ours', {
        reattachSecret: secret,
        username: null,
        password: null,
      });
      expect(answer).toMatchObject({ type: PacketType.REATTACH_SESSION_RESP, reattached: true });
      await waitFor(() => holderOf(broker) !== before, 'the session to move');
      // The secret never reaches the log, in any form.
      const logged = logger.dump();
      expect(logged).not.toContain(secret.toString('hex'));
      expect(logged).not.toContain(secret.toString('base64'));
    },
  );

  it('is validated as a broker setting', () => {
    expect(() => new Broker({ nameOnlyReattachEnabled: 'no' as unknown as boolean })).toThrow(
      /nameOnlyReattachEnabled \(name-only-reattach-enabled\) must be true or false \(actual value: no\)/,
    );
  });
});
