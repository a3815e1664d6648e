/** What a transport tells its owner. */
export interface TransportHandlers {
  onData(chunk: Buffer): void;
  /** Called once, when the link is gone for any reason; `error` when it did not close cleanly. */
  onClose(error?: Error): void;
  /**
   * What was written has gone to the operating system or the peer (pendingBytes fell): a writer
   * that held back because too much was pending may go on.
   */
  onDrain?(): void;
}

/** A byte stream to one peer: TCP or in-VM. Frames are written whole; reads may split or join them. */
export interface Transport {
  /** 'tcp://127.0.0.1:5445' or 'invm://0', for logs. */
  readonly remoteAddress: string;
  setHandlers(handlers: TransportHandlers): void;
  /** Queues a frame; frames written in the same tick go to the peer in one write. */
  write(frame: Buffer): void;
  /** Bytes accepted by write() but not yet handed to the operating system or the peer. */
  readonly pendingBytes: number;
  /** Stops handing received data to onData until resumeReading(); the peer's writes then back up. */
  pauseReading(): void;
  resumeReading(): void;
  /** Sends what is queued, then closes. */
  close(): void;
  /** Closes at once, dropping what is queued. */
  destroy(error?: Error): void;
  readonly closed: boolean;
}
