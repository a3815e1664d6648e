// A minimal TCP proxy for the benchmarks: relays, cuts every link with a reset, and refuses new
// links while told to. (The tests' fault proxy has many more modes; the benchmarks need these.)
import net from 'node:net';

export async function startLinkProxy(targetPort) {
  const links = new Set();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort });
    const link = { client, upstream };
    links.add(link);
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        links.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    cut() {
      for (const { client, upstream } of links) {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
      links.clear();
    },
    refuse(on) {
      refusing = on;
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
