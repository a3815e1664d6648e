import { TopologyWait } from '../../../src/core/client/topology-wait';
import { HornetQException } from '../../../src/core/protocol';

describe('TopologyWait', () => {
  it('resolves when the topology comes within the bound', async () => {
    const wait = new TopologyWait('tcp://127.0.0.1:5445', 5_000);
    wait.topologyReceived();
    await expect(wait.received).resolves.toBeUndefined();
  });

  it('times out naming the broker, and a topology that comes later makes the connection ready after all', async () => {
    const wait = new TopologyWait('tcp://127.0.0.1:5445', 10);
    await expect(wait.received).rejects.toMatchObject({
      code: 'CONNECTION_TIMEDOUT',
      message: expect.stringContaining('tcp://127.0.0.1:5445'),
    });
    wait.topologyReceived();
    await expect(wait.received).resolves.toBeUndefined();
  });

  it('ends with the connection: a topology after the failure changes nothing', async () => {
    const wait = new TopologyWait('tcp://127.0.0.1:5445', 5_000);
    wait.connectionFailed(new HornetQException('NOT_CONNECTED', 'link down'));
    wait.topologyReceived();
    await expect(wait.received).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
