// A loopback port for a server that must be told its port rather than choose one (the interop
// harness' HqServer takes --port and binds just that).
import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listened on a moment ago: the kernel's pick for port 0. */
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
