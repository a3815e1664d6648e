import { ManagementClient, ManagementError, ManagementErrorCode } from '../../src';
import { useTestBrokers } from '../support/test-broker';

/**
 * The request/answer machinery against our broker on real sockets, where nothing answers: our
 * broker has no `activemq.management` address, so an Artemis-dialect request is dropped there as
 * on any server without that address. Every request settles (timeout or abort), the client goes
 * on after one that gave up, and its reply queues do not outlive it.
 */
describe('management requests nobody answers', () => {
  const brokers = useTestBrokers();

  async function client(timeoutMs: number) {
    const broker = await brokers.startBroker();
    const factory = await brokers.connect(broker);
    const session = await factory.createSession();
    return { session, management: new ManagementClient(session, { dialect: 'artemis', timeoutMs }) };
  }

  const replyQueues = async (session: { queueStats(): Promise<Array<{ name: string }>> }) =>
    (await session.queueStats()).filter((queue) => queue.name.startsWith('hornetq-js.management.reply.'));

  test('time out with an error naming the request, the address and the wait', async () => {
    const { session, management } = await client(200);
    const error = await management.countMessages('orders').catch((thrown: unknown) => thrown);
    expect(ManagementError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: ManagementErrorCode.TIMEOUT,
      message:
        'queue.orders countMessages: no answer from activemq.management within 200 ms (does the server speak the artemis management dialect, with management on?)',
    });
    // The reply queue that might still get the late answer is gone; the next request makes another.
    expect(await replyQueues(session)).toEqual([]);
    await expect(management.isPaused('orders', {})).rejects.toMatchObject({
      code: ManagementErrorCode.TIMEOUT,
    });
    await management.close();
    expect(await replyQueues(session)).toEqual([]);
  });

  test('an abort ends the wait with its reason, a later request still runs', async () => {
    const { session, management } = await client(60_000);
    const controller = new AbortController();
    const pending = management.listConnections({ signal: controller.signal });
    const queued = management.countMessages('q', { signal: AbortSignal.abort(new Error('never sent')) });
    setTimeout(() => controller.abort(new Error('operator gave up')), 50);
    await expect(pending).rejects.toThrow('operator gave up');
    await expect(queued).rejects.toThrow('never sent');
    const timed = new ManagementClient(session, { dialect: 'artemis', timeoutMs: 100 });
    await expect(timed.pause('q')).rejects.toMatchObject({ code: ManagementErrorCode.TIMEOUT });
    await timed.close();
    await management.close();
    expect(await replyQueues(session)).toEqual([]);
  });

  test('a closed client refuses requests; bad options are a RangeError', async () => {
    const { session, management } = await client(100);
    await management.close();
    await expect(management.countMessages('q')).rejects.toThrow(
      'queue.q countMessages: the management client is closed',
    );
    expect(() => new ManagementClient(session, { timeoutMs: 0 })).toThrow(RangeError);
    expect(() => new ManagementClient(session, { dialect: 'qpid' as 'artemis' })).toThrow(
      "management dialect 'qpid' is not one of: hornetq, artemis",
    );
  });
});
