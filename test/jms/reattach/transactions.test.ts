import {
  JMSException,
  Session,
  TransactionRolledBackException,
  type HornetQConnection,
  type HornetQSession,
} from '../../../src';
import {
  CORE_QUEUE,
  numbered,
  QUEUE,
  receiveMessages,
  seqOf,
  settle,
  useJmsReattach,
  waitFor,
  type Heard,
} from './rig';

/**
 * hornetq-spec §7.9 / §1.8 at JMS level: a transacted session whose broker session is lost
 * (broker restarted) with work done is rollback-only, so commit throws
 * TransactionRolledBackException and the session carries on; with no work done nothing is lost.
 * A commit in flight when the link goes settles with TRANSACTION_OUTCOME_UNKNOWN or
 * TransactionRolledBackException, never hangs.
 */

const rig = useJmsReattach();

async function transacted(): Promise<{ connection: HornetQConnection; heard: Heard; tx: HornetQSession }> {
  await rig.start();
  const { connection, heard } = await rig.connect();
  const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
  await connection.start();
  return { connection, heard, tx };
}

/** Restarts the broker and waits until the connection has re-created its sessions. */
async function restartAndRecover(heard: Heard): Promise<void> {
  await rig.restart();
  await heard.exceptionCount(1);
  expect(heard.codes).toEqual(['FAILOVER']);
}

async function expectRolledBack(commit: Promise<void>): Promise<void> {
  const result = await settle(commit);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error).toBeInstanceOf(TransactionRolledBackException);
  expect((result.error as JMSException).getErrorCode()).toBe('TRANSACTION_ROLLED_BACK');
}

describe('a broker restart during a transaction', () => {
  test('messages sent: commit throws TransactionRolledBackException, they are gone, and the session sends and commits again', async () => {
    const { heard, tx } = await transacted();
    const producer = await tx.createProducer(tx.createQueue(QUEUE));
    for (let seq = 0; seq < 5; seq++) await producer.send(numbered(tx, seq));
    await restartAndRecover(heard);
    await expectRolledBack(tx.commit());
    expect(rig.coreQueue(CORE_QUEUE)?.messageCount).toBe(0);

    await producer.send(numbered(tx, 5));
    await tx.commit();
    const consumer = await tx.createConsumer(tx.createQueue(QUEUE));
    expect((await receiveMessages(consumer, 1)).map(seqOf)).toEqual([5]);
    expect(await consumer.receive(200)).toBeNull();
    await tx.commit();
    await waitFor(() => rig.coreQueue(CORE_QUEUE)?.messageCount === 0, 'the queue to drain');
  });

  test('messages received: commit throws TransactionRolledBackException; they come again and commit works', async () => {
    const { connection, heard, tx } = await transacted();
    const sender = await connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    const producer = await sender.createProducer(sender.createQueue(QUEUE));
    for (let seq = 0; seq < 5; seq++) await producer.send(numbered(sender, seq));
    const consumer = await tx.createConsumer(tx.createQueue(QUEUE));
    expect((await receiveMessages(consumer, 5)).map(seqOf)).toEqual([0, 1, 2, 3, 4]);

    await restartAndRecover(heard);
    await expectRolledBack(tx.commit());
    const again = await receiveMessages(consumer, 5);
    expect(again.map(seqOf)).toEqual([0, 1, 2, 3, 4]);
    // Not necessarily marked redelivered: like HornetQ (persist-delivery-count-before-delivery
    // false), the restarted broker does not know they were delivered before.
    await tx.commit();
    expect(await consumer.receive(200)).toBeNull();
    await waitFor(() => rig.coreQueue(CORE_QUEUE)?.messageCount === 0, 'the queue to drain');
  });

  test('no work done (testTransactedMessagesNotSentSoNoRollback): the next commit succeeds and nothing is lost', async () => {
    const { heard, tx } = await transacted();
    const producer = await tx.createProducer(tx.createQueue(QUEUE));
    for (let seq = 0; seq < 3; seq++) await producer.send(numbered(tx, seq));
    await tx.commit();
    await restartAndRecover(heard);
    await tx.commit();
    const consumer = await tx.createConsumer(tx.createQueue(QUEUE));
    expect((await receiveMessages(consumer, 3)).map(seqOf)).toEqual([0, 1, 2]);
    await tx.commit();
  });
});

describe('a commit in flight when the link goes', () => {
  /** Sends one message in the transaction, then starts a commit that the black hole swallows. */
  async function commitInFlight(tx: HornetQSession): Promise<{ commit: Promise<void> }> {
    const producer = await tx.createProducer(tx.createQueue(QUEUE));
    await producer.send(numbered(tx, 0));
    rig.proxy.blackHole();
    const dropped = rig.proxy.bytesDropped;
    // Wrapped: an async function returning the promise itself would wait for it to settle.
    const commit = tx.commit();
    await waitFor(() => rig.proxy.bytesDropped > dropped, 'the commit to vanish');
    return { commit };
  }

  /** Outcome unknown or rolled back, a JMSException either way, within `limitMs`. */
  async function expectOutcomeUnknownOrRolledBack(
    commit: Promise<void>,
    allowed: string[] = ['TRANSACTION_OUTCOME_UNKNOWN', 'TRANSACTION_ROLLED_BACK'],
  ): Promise<void> {
    const result = await settle(commit);
    expect(result.ok).toBe(false);
    expect(result.ms).toBeLessThan(10_000);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(JMSException);
    const code = (result.error as JMSException).getErrorCode();
    expect(allowed).toContain(code);
    if (code === 'TRANSACTION_ROLLED_BACK')
      expect(result.error).toBeInstanceOf(TransactionRolledBackException);
  }

  test.each([
    ['reconnect-attempts 0', 0],
    ['every reconnect attempt refused', 3],
  ])(
    'lost for good (%s): the commit ends, DISCONNECT is heard, the session is closed',
    async (_name, attempts) => {
      await rig.start();
      const { connection, heard } = await rig.connect((cf) => {
        cf.setReconnectAttempts(attempts);
        // Long enough that only the failure can end the commit.
        cf.setCallTimeout(30_000);
      });
      const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
      const { commit } = await commitInFlight(tx);
      rig.proxy.refuseNewConnections();
      rig.proxy.cut();
      await expectOutcomeUnknownOrRolledBack(commit);
      await heard.exceptionCount(1);
      expect(heard.codes).toEqual(['DISCONNECT']);
      expect(await settle(tx.commit())).toMatchObject({ ok: false, error: expect.any(JMSException) });
      await expect(tx.close()).resolves.toBeUndefined();
      // The broker never committed: the message is not there.
      expect(rig.coreQueue(CORE_QUEUE)?.messageCount).toBe(0);
    },
  );

  test('survived by re-creating the session (window -1): TRANSACTION_OUTCOME_UNKNOWN, then the session works', async () => {
    await rig.start();
    const { connection, heard } = await rig.connect((cf) => {
      cf.setConfirmationWindowSize(-1);
      cf.setCallTimeout(30_000);
    });
    const tx = await connection.createSession(true, Session.SESSION_TRANSACTED);
    const { commit } = await commitInFlight(tx);
    rig.proxy.cut();
    rig.proxy.pass();
    // Released by the re-creation (UNBLOCKED): the client rolls back and cannot know the outcome.
    await expectOutcomeUnknownOrRolledBack(commit, ['TRANSACTION_OUTCOME_UNKNOWN']);
    await heard.exceptionCount(1);
    expect(heard.codes).toEqual(['FAILOVER']);
    expect(connection.getStatistics()).toMatchObject({ reconnects: 1 });
    // The commit never reached the broker; the session goes on.
    expect(rig.coreQueue(CORE_QUEUE)?.messageCount).toBe(0);
    const producer = await tx.createProducer(tx.createQueue(QUEUE));
    await producer.send(numbered(tx, 1));
    await tx.commit();
    expect(rig.coreQueue(CORE_QUEUE)?.messageCount).toBe(1);
    await connection.start();
    const consumer = await tx.createConsumer(tx.createQueue(QUEUE));
    expect((await receiveMessages(consumer, 1)).map(seqOf)).toEqual([1]);
    await tx.commit();
  });
});
