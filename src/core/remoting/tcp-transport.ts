import net from 'node:net';
import type { Transport, TransportHandlers } from './transport';

/**
 * A transport over a node:net socket. Nagle is off (latency), and frames written during one tick
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
    this.remoteAddress = `tcp://${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.handlers?.onData(chunk));
    socket.on('error', (error) => {
      this.failure ??= error;
    });
    socket.on('close', () => this.notifyClose());
  }

  /** Connects to host:port; rejects with the socket error (e.g. ECONNREFUSED) or on timeout. */
  static connect(host: string, port: number, timeoutMs: number): Promise<TcpTransport> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`connect to ${host}:${port} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeListener('error', reject);
        resolve(new TcpTransport(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
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
    const data = joinFrames(this.queued, this.queuedBytes);
    this.queued = [];
    this.queuedBytes = 0;
    this.socket.write(data);
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.handlers?.onClose(this.failure);
  }
}

/**
 * The frames as one buffer: a view when they lie side by side in one slab (frames encoded in
 * order, see FrameSlab), a copy otherwise.
 */
function joinFrames(frames: Buffer[], totalBytes: number): Buffer {
  const first = frames[0] as Buffer;
  if (frames.length === 1) return first;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < frames.length; i++) {
    const frame = frames[i] as Buffer;
    if (frame.buffer !== first.buffer || frame.byteOffset !== end) return Buffer.concat(frames, totalBytes);
    end += frame.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, totalBytes);
}
