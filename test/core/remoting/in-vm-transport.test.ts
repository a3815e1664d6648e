import { InVmTransport } from '../../../src/core/remoting/in-vm-transport';
import { waitFor } from '../../support/test-broker';

/** The in-VM link keeps the Transport contract the broker's backpressure relies on, as TCP does. */
describe('InVmTransport backpressure', () => {
  function pair(): {
    client: InVmTransport;
    server: InVmTransport;
    received: Buffer[];
    drains: () => number;
  } {
    const [client, server] = InVmTransport.pair('backpressure');
    const received: Buffer[] = [];
    let drained = 0;
    client.setHandlers({ onData: (chunk) => received.push(chunk), onClose: () => undefined });
    server.setHandlers({ onData: () => undefined, onClose: () => undefined, onDrain: () => drained++ });
    return { client, server, received, drains: () => drained };
  }

  it('a reader that pauses makes the writer see its frames pending; resuming delivers them and tells the writer', async () => {
    const { client, server, received, drains } = pair();
    client.pauseReading();
    for (let i = 0; i < 10; i++) server.write(Buffer.alloc(1000, i));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([]);
    expect(server.pendingBytes).toBe(10_000);
    expect(drains()).toBe(0);

    client.resumeReading();
    await waitFor(() => received.length === 10, 'the frames to be delivered');
    expect(server.pendingBytes).toBe(0);
    expect(drains()).toBe(1);
    expect(received.map((frame) => frame[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    server.destroy();
  });
});
