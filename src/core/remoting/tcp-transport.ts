import net from 'node:net';
import tls from 'node:tls';
import { HORNETQ_PREAMBLE, HornetQException } from '../protocol';
import { ClientUpgradeHandshake, type HttpUpgradeRequest } from './http-upgrade';
import { isTlsVerificationFailure } from './tls-verification';
import type { Transport, TransportHandlers } from './transport';

/** How a client checks the broker over TLS: the chain always, the host name unless told not to. */
export interface TlsConnectOptions {
  context: tls.SecureContext;
  /** Artemis' verify-host: false skips the host name check (never the chain's). */
  verifyHost: boolean;
}

/**
 * A transport over a node:net socket, or a node:tls one (a TLSSocket is a net.Socket whose data
 * is already decrypted, so the HORNETQ preamble and frames travel inside TLS as with HornetQ's
 * Netty SSL handler below its frame decoder). Nagle is off (latency), and frames written during one tick
 * are joined and handed to the socket in one write, so many small packets cost one syscall.
 */
export class TcpTransport implements Transport {
  readonly remoteAddress: string;
  private handlers: TransportHandlers | null = null;
  private queued: Buffer[] = [];
  private queuedBytes = 0;
  private flushScheduled = false;
  private closeNotified = false;
  private failure: Error | undefined;

  constructor(private readonly socket: net.Socket) {
    const scheme = socket instanceof tls.TLSSocket ? 'tls' : 'tcp';
    this.remoteAddress = `${scheme}://${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.handlers?.onData(chunk));
    socket.on('error', (error) => {
      // A TLS alert after the handshake (TLS 1.3 checks a client certificate then) says why.
      this.failure ??=
        scheme === 'tls' && hintFor(error) !== null
          ? new Error(describeTlsError(error), { cause: error })
          : error;
    });
    socket.on('close', () => this.notifyClose());
    socket.on('drain', () => this.handlers?.onDrain?.());
  }

  /**
   * Connects to host:port as a client: the HORNETQ preamble goes first. Rejects with the socket
   * error (e.g. ECONNREFUSED) or on timeout; an abort of `signal` destroys the socket and rejects
   * with its reason (at once, opening nothing, when it is aborted already). With `upgrade`, the
   * connection is first upgraded from HTTP (http-upgrade-enabled), within the same timeout.
   */
  static connect(
    host: string,
    port: number,
    timeoutMs: number,
    signal?: AbortSignal,
    upgrade?: HttpUpgradeRequest,
  ): Promise<TcpTransport> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const socket = net.connect({ host, port });
    return whenReady(socket, 'connect', timeoutMs, signal, upgrade, {
      timedOut: () => new Error(`connect to ${host}:${port} timed out after ${timeoutMs} ms`),
      failed: (error) => error,
      upgradeFailed: (detail) => upgradeError(`tcp://${host}:${port}`, upgrade, detail),
    });
  }

  /**
   * Connects over TLS: the broker's chain must lead to the context's CAs (Node's own when it has
   * none), its certificate must name `host` unless verifyHost is false, and only then does the
   * HORNETQ preamble go. The timeout bounds the TCP connect and the handshake together (and the
   * HTTP upgrade inside TLS, with `upgrade`); `signal` as for connect.
   */
  static connectTls(
    host: string,
    port: number,
    timeoutMs: number,
    options: TlsConnectOptions,
    signal?: AbortSignal,
    upgrade?: HttpUpgradeRequest,
  ): Promise<TcpTransport> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const socket = tls.connect({
      host,
      port,
      secureContext: options.context,
      rejectUnauthorized: true,
      // SNI takes host names only; an IP address is still checked against the IP SANs.
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...(options.verifyHost ? {} : { checkServerIdentity: () => undefined }),
    });
    const failed = (error: Error): Error => {
      const message = `TLS connection to ${host}:${port} failed: ${describeTlsError(error)}`;
      return isTlsVerificationFailure(error)
        ? new HornetQException(
            'TLS_VERIFICATION_FAILED',
            `${message}; the broker's certificate did not pass verification (trust-store-path or ca, its host names, its dates)`,
            { cause: error },
          )
        : new Error(message, { cause: error });
    };
    return whenReady(socket, 'secureConnect', timeoutMs, signal, upgrade, {
      timedOut: () => failed(new Error(`no TLS handshake within ${timeoutMs} ms`)),
      failed,
      upgradeFailed: (detail) => upgradeError(`tls://${host}:${port}`, upgrade, detail),
    });
  }

  get pendingBytes(): number {
    return this.queuedBytes + this.socket.writableLength;
  }

  get closed(): boolean {
    return this.closeNotified || this.socket.destroyed;
  }

  setHandlers(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  write(frame: Buffer): void {
    if (this.socket.destroyed) return;
    this.queued.push(frame);
    this.queuedBytes += frame.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(() => this.flush());
    }
  }

  pauseReading(): void {
    this.socket.pause();
  }

  resumeReading(): void {
    this.socket.resume();
  }

  close(): void {
    this.flush();
    this.socket.end();
  }

  destroy(error?: Error): void {
    this.failure ??= error;
    this.queued = [];
    this.queuedBytes = 0;
    this.socket.destroy();
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queued.length === 0 || this.socket.destroyed) return;
    const runs = contiguousRuns(this.queued);
    this.queued = [];
    this.queuedBytes = 0;
    if (runs.length === 1) {
      this.socket.write(runs[0] as Buffer);
    } else {
      // Several slabs' worth: corked, the socket hands them to the kernel in one writev, uncopied.
      this.socket.cork();
      for (const run of runs) this.socket.write(run);
      this.socket.uncork();
    }
    // What was queued counted as pending until now, so a large batch may have looked congested;
    // if the socket took it all without backpressure it will never emit 'drain': say so here.
    if (!this.socket.writableNeedDrain) this.handlers?.onDrain?.();
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.handlers?.onClose(this.failure);
  }
}

/**
 * What the alerts a peer sends mean to the one who gets them: OpenSSL names the alert, not what
 * to change.
 */
const TLS_ALERT_HINTS: Readonly<Record<string, string>> = Object.freeze({
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    'the peer requires a certificate of this side (need-client-auth): give it a key-store-path',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE:
    'the peer refused the handshake: it may require a certificate of this side (need-client-auth), or share no protocol or cipher suite with it',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: "the peer did not accept this side's certificate",
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA:
    "the peer does not trust the CA of this side's certificate (its trust-store-path)",
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'no TLS version in common (enabled-protocols)',
});

function hintFor(error: Error): string | null {
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined ? null : (TLS_ALERT_HINTS[code] ?? null);
}

/**
 * The error with OpenSSL's or Node's code (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, …), and
 * for an alert from the peer what it means.
 */
export function describeTlsError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const described =
    code === undefined || error.message.includes(code) ? error.message : `${error.message} (${code})`;
  const hint = hintFor(error);
  return hint === null ? described : `${hint}; ${described}`;
}

/**
 * The frames as few buffers as possible without copying: frames encoded one after another lie
 * side by side in a slab (see FrameSlab), and each such run becomes one view.
 */
function contiguousRuns(frames: Buffer[]): Buffer[] {
  const runs: Buffer[] = [];
  let run = frames[0] as Buffer;
  let runLength = run.length;
  for (let i = 1; i < frames.length; i++) {
    const frame = frames[i] as Buffer;
    if (frame.buffer === run.buffer && frame.byteOffset === run.byteOffset + runLength) {
      runLength += frame.length;
      continue;
    }
    runs.push(viewOf(run, runLength));
    run = frame;
    runLength = frame.length;
  }
  runs.push(viewOf(run, runLength));
  return runs;
}

function viewOf(first: Buffer, length: number): Buffer {
  return length === first.length ? first : Buffer.from(first.buffer, first.byteOffset, length);
}

/** Why an HTTP upgrade at `where` failed, naming the endpoint asked for. */
function upgradeError(where: string, upgrade: HttpUpgradeRequest | undefined, detail: string): Error {
  const endpoint = upgrade?.endpoint === undefined ? '' : ` (http-upgrade-endpoint '${upgrade.endpoint}')`;
  return new Error(`HTTP upgrade at ${where}${endpoint} failed: ${detail}`);
}

interface ConnectErrors {
  timedOut(): Error;
  failed(error: Error): Error;
  upgradeFailed(detail: string): Error;
}

/**
 * Resolves with the transport once `socket` emits `ready` and, with `upgrade`, once the server
 * has switched it from HTTP to the core protocol (the HORNETQ preamble then written, as HornetQ's
 * connector writes it after the upgrade); otherwise destroys it and rejects: on an error, a
 * refused or malformed upgrade, at the timeout (one for both steps), or when `signal` aborts
 * (with its reason). Whichever comes first removes the timer and every listener it added.
 */
function whenReady(
  socket: net.Socket,
  ready: 'connect' | 'secureConnect',
  timeoutMs: number,
  signal: AbortSignal | undefined,
  upgrade: HttpUpgradeRequest | undefined,
  errors: ConnectErrors,
): Promise<TcpTransport> {
  return new Promise((resolve, reject) => {
    let upgrading = false;
    const handshake = upgrade === undefined ? null : new ClientUpgradeHandshake(upgrade);
    const settle = (): void => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      socket.removeListener(ready, onReady);
      socket.removeListener('data', onAnswer);
      socket.removeListener('close', onClosedUnanswered);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown): void => {
      settle();
      socket.destroy();
      reject(error);
    };
    const open = (): void => {
      settle();
      const transport = new TcpTransport(socket);
      socket.write(HORNETQ_PREAMBLE);
      resolve(transport);
    };
    const failUpgrade = (error: unknown): void =>
      fail(errors.upgradeFailed(error instanceof Error ? error.message : String(error)));
    const onError = (error: Error): void => (upgrading ? failUpgrade(error) : fail(errors.failed(error)));
    const onAbort = (): void => fail(signal?.reason);
    const onReady = (): void => {
      if (handshake === null) {
        open();
        return;
      }
      upgrading = true;
      try {
        socket.write(handshake.requestBytes());
      } catch (error) {
        failUpgrade(error);
        return;
      }
      socket.on('data', onAnswer);
      socket.once('close', onClosedUnanswered);
    };
    const onAnswer = (chunk: Buffer): void => {
      let switched: boolean;
      try {
        switched = (handshake as ClientUpgradeHandshake).take(chunk);
      } catch (error) {
        failUpgrade(error);
        return;
      }
      if (switched) open();
    };
    const onClosedUnanswered = (): void =>
      failUpgrade(new Error('it closed the connection without answering'));
    const timer = setTimeout(
      () =>
        upgrading
          ? failUpgrade(new Error(`no answer within the connect timeout (${timeoutMs} ms)`))
          : fail(errors.timedOut()),
      timeoutMs,
    );
    socket.on('error', onError);
    socket.once(ready, onReady);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
