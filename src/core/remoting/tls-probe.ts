import net from 'node:net';
import tls from 'node:tls';

/**
 * Whether host:port speaks TLS: a handshake is started there, trusting any certificate (nothing is
 * sent over it, and it is closed at once), and a finished handshake or a TLS alert from the peer
 * says yes. For explaining why a plain connection was dropped without a word, as a TLS port drops
 * the bytes of a client that does not speak TLS. Resolves false on anything else, or after
 * `timeoutMs`, and never rejects; the socket is always destroyed.
 */
export function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port,
      rejectUnauthorized: false,
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
    });
    let settled = false;
    const settle = (answer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    socket.once('secureConnect', () => settle(true));
    // Kept for errors after settling too, so that none is left unhandled.
    socket.on('error', (error: NodeJS.ErrnoException) => settle(/_ALERT_/.test(error.code ?? '')));
    socket.once('close', () => settle(false));
  });
}
