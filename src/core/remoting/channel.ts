import { HornetQException, packetTypeName, type Packet, type ResponsePacket } from '../protocol';
import { FrameSlab } from '../protocol/frame-slab';
import { decodeFrame } from '../protocol/packet-codec';
import { PacketType } from '../protocol/packet-type';
import { isResponse, requiresConfirmation } from '../protocol/packets';
import type { RemotingConnection } from './remoting-connection';
import { ResendBuffer } from './resend-buffer';
import { SendConfirmations, type ConfirmationWaiter } from './send-confirmations';

/** Packets handled before a confirmation goes out even if they add up to less than the window. */
export const MAX_UNCONFIRMED_COMMANDS = 1024;

/**
 * Calls on one channel that timed out and are still unanswered (tombstones), at which the peer is
 * taken to have stopped answering. A tombstone must wait for its answer (the wire names no request
 * in a response, so dropping one would hand its late answer to the next call), and a peer that
 * keeps the protocol answers every request, late at worst: a stall leaves about one tombstone per
 * call in flight, and its answers clear them. A line this long means the peer stopped answering
 * while calls kept coming, which would grow it without end: the connection is failed with an
 * error that says so (a failover or reconnect takes over: a reattach brings what the peer had
 * sent, a re-created session starts afresh), and while the line stays this long new calls are
 * refused unsent. HornetQ never has more than one blocking call in flight per channel (its
 * sendBlockingLock), so this is far beyond anything a HornetQ peer sees from its own clients.
 */
export const MAX_UNANSWERED_TIMED_OUT_CALLS = 1024;

/**
 * Handles a packet that is not a response. `commandId` is the packet's number in the peer's
 * command stream (-1 for packets that are not counted). Once the packet is fully handled (and,
 * on the broker, stored) the handler calls `channel.confirm(commandId, size)`; confirmations must
 * come in the order the packets arrived.
 */
export type PacketHandler = (packet: Packet, commandId: number, size: number) => void;

export interface ChannelOptions {
  /** Bytes handled between two confirmations to the peer; -1: no resend buffer, no confirmations. */
  confirmationWindowSize: number;
  /** How long a blocking call waits for its response. */
  callTimeoutMs: number;
  /**
   * Most bytes the resend buffer may hold before senders wait (default 2 × the window, the bound
   * the contract states; a frame that finds the buffer empty always goes, so one frame larger
   * than the bound can be held alone).
   */
  resendBufferLimitBytes?: number;
  /**
   * One blocking call at a time: a call is written only once the one before it has its answer or
   * has timed out. For channel 1 on a client (CREATESESSION, REATTACH_SESSION): HornetQ's client
   * holds its sendBlockingLock there, so a real broker has only ever seen one such request in
   * flight per connection, and it answers a reattach only after replaying the session's packets.
   */
  serialBlockingCalls?: boolean;
  /**
   * For a side whose sends do not wait (the broker): the most the peer may leave unconfirmed.
   * Past it, `exceeded` runs once (on the next tick, not inside the send): the peer is not
   * keeping the confirmation protocol, and the owner ends what must end.
   */
  unconfirmedLimit?: { bytes: number; commands: number; exceeded(): void };
}

/** A blocking call waiting for its turn (serialBlockingCalls): nothing of it was written yet. */
interface QueuedCall {
  packet: Packet;
  /** The call that checks the answers to the calls before it (see countAnswersUpTo). */
  barrier: boolean;
  timeoutMs: number;
  frame: Buffer | undefined;
  resolve(response: ResponsePacket): void;
  reject(error: Error): void;
}

/**
 * A blocking call waiting for its answer. The wire names no request in a response, so the answers
 * settle the calls in the order they were sent (HornetQ's matching). A call that timed out stays
 * in the line as a tombstone (`settled`): its late answer is taken by it and dropped, instead of
 * settling the next call with the wrong answer.
 */
interface PendingCall {
  resolve(response: ResponsePacket): void;
  reject(error: Error): void;
  deadline: number;
  requestType: number;
  /** The request's command id (-1 when not counted): a reattach settles calls by it. */
  requestId: number;
  barrier: boolean;
  settled: boolean;
}

/** A command reset kept to send again (see Channel.reset), with the call waiting for its answer. */
interface HeldSend {
  readonly packet: Packet;
  readonly frame: Buffer;
  /** A settled call is a tombstone: the answer to the resend must settle nothing else. */
  readonly call: PendingCall | null;
  /** A caller waiting for the command's confirmation: it waits on for the resend's. */
  readonly confirmation: ConfirmationWaiter | null;
}

/** What Channel.reset kept to send again on the new command stream; opaque to its caller. */
export interface HeldSends {
  readonly commands: readonly HeldSend[];
}

const NOTHING_HELD: HeldSends = { commands: [] };

/** Whether the peer answers `packet` (a blocking send): its answer needs a place in the line. */
function expectsAnswer(packet: Packet): boolean {
  return 'requiresResponse' in packet && packet.requiresResponse === true;
}

/** The place in the line of a call nobody waits for any more (released earlier). */
function tombstoneOf(packet: Packet): PendingCall {
  return {
    resolve: () => undefined,
    reject: () => undefined,
    deadline: Infinity,
    requestType: packet.type,
    requestId: -1,
    barrier: false,
    settled: true,
  };
}

/** Answers collected while a barrier call is out (see countAnswersUpTo). */
interface AnswerCount {
  readonly isBarrierAnswer: (response: ResponsePacket) => boolean;
  readonly answers: ResponsePacket[];
  /**
   * Answers of the barrier's kind owed to calls before it (an application's call of the same
   * request, a barrier a failure cut off): held as ordinary answers, not taken as the barrier's.
   */
  owed: number;
  /** The barrier's own place in the line, once written. */
  call: PendingCall | null;
  /** Answers beyond the calls before the barrier, once its answer came. */
  extras: number;
}

/**
 * One session's conversation over a remoting connection, and where reattachment lives. Each side
 * numbers the confirmable packets it sends (0, 1, 2, …) and counts those it receives; the peer's
 * PacketsConfirmed(n) releases every sent packet up to n from the resend buffer. After a reconnect
 * the channel moves to the new connection and replays what the peer has not confirmed.
 */
export class Channel {
  private handler: PacketHandler | null = null;
  private readonly resendBuffer: ResendBuffer | null;
  /** Sends whose callers wait for the peer to confirm their command (see send's `confirmation`). */
  private readonly confirmations = new SendConfirmations();
  /** Where this channel's frames are encoded (see RemotingConnection.encode). */
  private readonly slab = new FrameSlab();
  private readonly resendLimit: number;
  private sentCommands = 0;
  private lastReceivedId = -1;
  private lastConfirmedId = -1;
  private unconfirmedBytes = 0;
  private unconfirmedCommands = 0;
  /**
   * Calls in the order their requests went out, tombstones included, from `pendingHead` on:
   * answers settle the head (an index, so that a long pipeline is not shifted call by call).
   */
  private pendingCalls: PendingCall[] = [];
  private pendingHead = 0;
  /** Calls still waiting (not tombstones): when 0, no timer is needed. */
  private waitingCalls = 0;
  /** With serialBlockingCalls: calls waiting for their turn, not yet written. */
  private queuedCalls: QueuedCall[] = [];
  private callTimer: NodeJS.Timeout | null = null;
  private callTimerDeadline = Infinity;
  private capacityWaiters: Array<{ frameBytes: number; wake: () => void }> = [];
  private isClosed = false;
  private replayed = 0;
  /** While a failover is in progress: packets are numbered and buffered but not written. */
  private holding = false;
  /** The unconfirmed limit was passed and reported; reset once confirmations bring it back. */
  private limitReported = false;
  /** The close went out: the peer drops the channel on it, so nothing more may be confirmed. */
  private confirmationsEnded = false;
  /** Set once the peer's count of our commands cannot be ours (see ResendBuffer.accounts). */
  private brokenNumbering: HornetQException | null = null;
  /** While a barrier call is out: answers are held, not matched, until the barrier's comes. */
  private answerCount: AnswerCount | null = null;
  /**
   * The request id of the last call answered. A peer answers a session's requests in the order it
   * executes them, each once what came before it is stored, so an answer to command n says the
   * peer has executed every command up to n, whatever it last confirmed (see replay).
   */
  private answeredThrough = -1;
  /** Set while awaitAnswersInFlight waits: called when no call is waiting any more. */
  private answersWaiter: (() => void) | null = null;
  /** Renumbered once at least: frames encoded earlier may name the old id. */
  private renumbered = false;
  /**
   * Calls set aside from the line (setAsideCalls) until a reset decides them: kept with the
   * commands it keeps, released with the rest.
   */
  private asideCalls: PendingCall[] = [];

  constructor(
    private channelId: number,
    private conn: RemotingConnection,
    private readonly options: ChannelOptions,
  ) {
    const window = options.confirmationWindowSize;
    this.resendBuffer = window >= 0 ? new ResendBuffer() : null;
    this.resendLimit = options.resendBufferLimitBytes ?? 2 * window;
  }

  get id(): number {
    return this.channelId;
  }

  get connection(): RemotingConnection {
    return this.conn;
  }

  /**
   * Why the peer's numbering of our commands is no longer ours, once it is not: the peer
   * confirmed more commands than were sent, a reattach answer named an id whose frames are gone,
   * or a check of the answers found more or fewer than there were calls. Nothing the peer
   * confirms from then on can be mapped onto what was sent: the session must start afresh.
   */
  get numberingBroken(): HornetQException | null {
    return this.brokenNumbering;
  }

  /** Encodes a packet as a frame of this channel (for send(), or to send later). */
  encode(packet: Packet): Buffer {
    return this.conn.encode(this.id, packet, this.slab);
  }

  get confirmationWindowSize(): number {
    return this.options.confirmationWindowSize;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** The id of the last packet received and handled: what a reattach request reports. */
  get lastConfirmedCommandId(): number {
    return this.lastConfirmedId;
  }

  get resendBufferBytes(): number {
    return this.resendBuffer?.bytes ?? 0;
  }

  get resendBufferPeakBytes(): number {
    return this.resendBuffer?.peakBytes ?? 0;
  }

  /** Commands this side has re-sent after reattaching, over the channel's life. */
  get replayedCommands(): number {
    return this.replayed;
  }

  /**
   * Moves the channel to another connection (after a reconnect, or on the broker when a client
   * reattaches). Nothing is written: the caller replays once the peer has said what it has.
   */
  transferTo(connection: RemotingConnection): void {
    if (connection === this.conn) return;
    this.conn.removeChannel(this.id);
    connection.adoptChannel(this);
    this.conn = connection;
    // Held until replay or reset, even if an earlier failover had already released it: a packet
    // written before the replay would reach the peer ahead of the replayed ones and be counted
    // with the wrong id (a failure that interrupts a failover after this channel was reattached).
    this.holding = true;
  }

  /**
   * Stops writing until replay or reset: the connection is gone, and a packet written to the new
   * one before the replay would be numbered differently by the peer. Packets sent meanwhile are
   * buffered (when there is a resend buffer) and go out with the replay.
   */
  hold(): void {
    this.holding = true;
  }

  /** Whether the peer's last handled command `peerLastConfirmedId` matches what was sent (see ResendBuffer.accounts). */
  accountsFor(peerLastConfirmedId: number): boolean {
    return this.resendBuffer?.accounts(peerLastConfirmedId) ?? true;
  }

  /**
   * Drops what the peer confirmed (its last handled command is `peerLastConfirmedId`) and writes
   * the rest again, in order; writing resumes. Returns how many packets were replayed, or null
   * when the peer's id cannot be ours (see ResendBuffer.accounts): then nothing is written, the
   * channel stays held and `numberingBroken` says why.
   *
   * Calls whose requests the peer has now confirmed and that are still unanswered will never be
   * answered: the peer replays what it sent before its reattach answer, so their answers are
   * lost (a peer that confirmed a command and had not yet written its answer when the reattach
   * took the session). They are settled here with CALL_OUTCOME_UNKNOWN, and their tombstones go,
   * so that no later answer is handed to them.
   *
   * `answersConfirm` (a peer that is not ours): commands up to the last one answered count as
   * confirmed too. HornetQ and Artemis name in their reattach answer the last command they had
   * stored, and execute again whatever is replayed: a command they were still storing then, and
   * have answered since (see awaitAnswersInFlight), is not replayed.
   */
  replay(peerLastConfirmedId: number, answersConfirm = false): number | null {
    if (this.resendBuffer === null) {
      this.holding = false;
      return 0;
    }
    if (!this.resendBuffer.accounts(peerLastConfirmedId)) {
      this.breakNumbering(
        `the reattach answer names command ${peerLastConfirmedId}, but this side sent commands ${this.resendBuffer.nextCommandId - this.resendBuffer.size} to ${this.sentCommands - 1} unconfirmed (${this.resendBuffer.nextCommandId - 1 - this.resendBuffer.size} confirmed before)`,
      );
      return null;
    }
    this.holding = false;
    // What the peer answered it executed, even if it had not confirmed it when it answered the reattach.
    const executed =
      answersConfirm && this.resendBuffer.accounts(this.answeredThrough)
        ? Math.max(peerLastConfirmedId, this.answeredThrough)
        : peerLastConfirmedId;
    // While answers are held (a check cut off), some may be theirs: the next check settles them.
    if (this.answerCount === null) this.settleConfirmedCalls(executed);
    this.resendBuffer.clearUpTo(executed);
    // Confirmed by the peer's own count: a refusal among them came before its reattach answer.
    this.confirmations.confirmUpTo(executed);
    this.limitReported = false;
    let count = 0;
    for (const frame of this.resendBuffer.frames()) {
      this.conn.writeFrame(frame);
      count++;
    }
    this.replayed += count;
    this.wakeCapacityWaiters();
    return count;
  }

  /**
   * Starts the command streams afresh for a re-created session on the broker: what was not
   * confirmed is dropped, both counts restart, and calls still waiting are released with `error`.
   *
   * `resend` picks, among the commands the peer neither confirmed nor answered, those to keep:
   * they are taken out with the calls waiting for their answers (which are not released), and
   * go again as commands of the new stream, in their order, when the caller hands them to
   * resendHeld (which it must: their calls settle only there). Sends waiting for their
   * confirmation go with their commands when kept, and fail with `unconfirmed` otherwise.
   */
  reset(error: Error, resend?: (packet: Packet) => boolean, unconfirmed: Error = error): HeldSends {
    // Answered is executed, and stored with all before it (see answeredThrough); a refusal of one
    // of them came before the answer. Unless the numbering broke: then no answer can be placed.
    if (this.brokenNumbering === null) this.confirmations.confirmUpTo(this.answeredThrough);
    const held = resend === undefined ? NOTHING_HELD : this.takeForResend(resend);
    // The commands not kept are gone with the peer's session: whether it stored them is unknown.
    this.confirmations.rejectAll(unconfirmed);
    this.holding = false;
    this.returnBlocking(error);
    this.brokenNumbering = null;
    this.resendBuffer?.reset();
    this.limitReported = false;
    this.sentCommands = 0;
    this.answeredThrough = -1;
    this.lastReceivedId = -1;
    this.lastConfirmedId = -1;
    this.unconfirmedBytes = 0;
    this.unconfirmedCommands = 0;
    // Senders waiting for room go after what is kept, not before: resendHeld wakes them.
    if (held.commands.length === 0) this.wakeCapacityWaiters();
    return held;
  }

  /**
   * Takes every call out of the line, as returnBlocking does, so that no answer the peer still
   * sends can settle one (its numbering is broken); but the calls whose commands `resend` picks are
   * set aside rather than released with `error`: the reset that follows keeps them with their
   * commands (see reset), or releases them if it does not.
   */
  setAsideCalls(resend: (packet: Packet) => boolean, error: Error): void {
    const picked = new Set<number>();
    for (const [id, frame] of this.unconfirmedFrames())
      if (resend(decodeFrame(frame, true).packet)) picked.add(id);
    const line = this.pendingCalls.slice(this.pendingHead);
    const aside = new Set(line.filter((call) => !call.settled && picked.has(call.requestId)));
    this.pendingCalls = line.filter((call) => !aside.has(call));
    this.pendingHead = 0;
    const kept = this.asideCalls;
    this.asideCalls = [];
    this.returnBlocking(error);
    this.asideCalls = [...kept, ...aside];
  }

  /** The frames held for replay, with their command ids, oldest first. */
  private *unconfirmedFrames(): IterableIterator<[number, Buffer]> {
    if (this.resendBuffer === null) return;
    let commandId = this.resendBuffer.nextCommandId - this.resendBuffer.size;
    for (const frame of this.resendBuffer.frames()) yield [commandId++, frame];
  }

  /**
   * Sends again what reset kept, as new commands, in order; each call waiting for one of them
   * waits on for the answer to its resend (a call that had timed out stays a tombstone, so that
   * the answer settles nothing else). Written now, or held like any send while the channel is
   * held. Closed meanwhile: the calls fail as the close failed the others. Returns how many went.
   */
  resendHeld(held: HeldSends): number {
    for (const [index, command] of held.commands.entries()) {
      let requestId: number;
      try {
        requestId = this.send(command.packet, command.frame, command.confirmation ?? undefined);
      } catch (error) {
        for (const { call, confirmation } of held.commands.slice(index)) {
          if (call !== null && !call.settled) call.reject(error as Error);
          confirmation?.reject(error as Error);
        }
        return index;
      }
      if (command.call === null) continue;
      this.pendingCalls.push({ ...command.call, requestId });
      if (command.call.settled) continue;
      this.waitingCalls++;
      this.scheduleCallTimer(command.call.deadline);
    }
    this.wakeCapacityWaiters();
    return held.commands.length;
  }

  /** See reset: the commands `resend` picks, and their calls, out of the buffer and the line. */
  private takeForResend(resend: (packet: Packet) => boolean): HeldSends {
    if (this.resendBuffer === null || this.resendBuffer.size === 0) return NOTHING_HELD;
    const calls = new Map<number, PendingCall>();
    for (const call of [...this.asideCalls, ...this.pendingCalls.slice(this.pendingHead)]) {
      if (call.requestId >= 0) calls.set(call.requestId, call);
    }
    // Answered is executed (a peer answers in order, once stored): those are not sent again.
    // Unless the numbering broke: then no answer can be placed, and the peer's duplicate cache decides.
    const executedThrough = this.brokenNumbering === null ? this.answeredThrough : -1;
    const commands: HeldSend[] = [];
    const kept = new Set<PendingCall>();
    for (const [id, frame] of this.unconfirmedFrames()) {
      if (id <= executedThrough) continue;
      const { packet } = decodeFrame(frame, true);
      if (!resend(packet)) continue;
      const waiting = calls.get(id);
      if (waiting !== undefined) kept.add(waiting);
      commands.push({
        packet,
        frame,
        call: waiting ?? (expectsAnswer(packet) ? tombstoneOf(packet) : null),
        confirmation: this.confirmations.take(id) ?? null,
      });
    }
    if (kept.size > 0) {
      this.pendingCalls = this.pendingCalls.slice(this.pendingHead).filter((call) => !kept.has(call));
      this.pendingHead = 0;
      this.asideCalls = this.asideCalls.filter((call) => !kept.has(call));
    }
    return { commands };
  }

  setHandler(handler: PacketHandler): void {
    this.handler = handler;
  }

  /**
   * Sends a packet; returns its command id, or -1 when it is not counted. `frame` is the packet
   * already encoded for this channel, when the caller had to encode it early. `confirmation`
   * settles when the peer confirms this very command (resolve), refuses it (refuseCommand), or
   * when its fate can no longer be known (a re-creation that does not send it again, a close);
   * it needs a resend buffer (confirmation-window-size >= 0) and a counted packet.
   */
  send(packet: Packet, frame: Buffer = this.encode(packet), confirmation?: ConfirmationWaiter): number {
    if (this.isClosed) throw new HornetQException('OBJECT_CLOSED', `channel ${this.id} is closed`);
    if (confirmation !== undefined) this.checkConfirmable(packet);
    // A frame encoded before the channel was renumbered names the old id (read as the codec
    // writes it: a long after the length and the type).
    if (this.renumbered && frame.readBigInt64BE(5) !== BigInt(this.channelId)) frame = this.encode(packet);
    let commandId = -1;
    if (requiresConfirmation(packet)) {
      commandId = this.sentCommands++;
      if (this.resendBuffer !== null) {
        this.resendBuffer.push(frame);
        this.checkUnconfirmedLimit(this.resendBuffer);
      }
    }
    if (confirmation !== undefined) this.confirmations.expect(commandId, confirmation);
    if (!this.holding) this.conn.writeFrame(frame);
    return commandId;
  }

  private checkConfirmable(packet: Packet): void {
    if (this.resendBuffer === null) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `A send confirmed by the broker needs confirmation-window-size >= 0 (confirmationWindowSize), and channel ${this.id} has -1: the broker confirms nothing on it`,
      );
    }
    if (!requiresConfirmation(packet)) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `${packetTypeName(packet.type)} is never confirmed by the peer`,
      );
    }
  }

  /** Callers waiting for the peer to confirm their sends. */
  get awaitedConfirmations(): number {
    return this.confirmations.size;
  }

  /**
   * The peer refused command `commandId` (our extension names it): a caller waiting for its
   * confirmation rejects with `error`. False when nobody waits for it (a send that did not ask).
   */
  refuseCommand(commandId: number, error: Error): boolean {
    return this.confirmations.refuse(commandId, error);
  }

  /**
   * Sends a request and waits for its response, at most `timeoutMs`. An EXCEPTION response
   * rejects with a HornetQException carrying the broker's code; a timeout rejects with
   * CONNECTION_TIMEDOUT.
   */
  sendBlocking(
    packet: Packet,
    timeoutMs = this.options.callTimeoutMs,
    frame?: Buffer,
  ): Promise<ResponsePacket> {
    if (this.unansweredTimedOutCalls >= MAX_UNANSWERED_TIMED_OUT_CALLS) {
      return Promise.reject(this.peerNotAnswering(`${packetTypeName(packet.type)} was not sent`));
    }
    return new Promise((resolve, reject) => {
      const call: QueuedCall = { packet, timeoutMs, frame, resolve, reject, barrier: false };
      if (this.options.serialBlockingCalls !== true) {
        this.startCall(call);
        return;
      }
      this.queuedCalls.push(call);
      this.startNextQueuedCall();
    });
  }

  /** Writes the request and puts its caller at the back of the line of waiting calls. */
  private startCall(call: QueuedCall): void {
    let requestId: number;
    try {
      requestId = this.send(call.packet, call.frame);
    } catch (error) {
      call.reject(error as Error);
      return;
    }
    const deadline = Date.now() + call.timeoutMs;
    this.pendingCalls.push({
      resolve: call.resolve,
      reject: call.reject,
      deadline,
      requestType: call.packet.type,
      requestId,
      barrier: call.barrier,
      settled: false,
    });
    this.waitingCalls++;
    this.scheduleCallTimer(deadline);
  }

  /** With serialBlockingCalls: the next queued call goes once none is waiting for its answer. */
  private startNextQueuedCall(): void {
    while (this.waitingCalls === 0 && this.queuedCalls.length > 0) {
      this.startCall(this.queuedCalls.shift() as QueuedCall);
    }
  }

  /** Calls whose answer has not arrived, timed-out ones (tombstones) included. */
  get outstandingCalls(): number {
    return this.pendingCalls.length - this.pendingHead;
  }

  /** Calls that timed out and whose answers have not come (tombstones). */
  get unansweredTimedOutCalls(): number {
    return this.outstandingCalls - this.waitingCalls;
  }

  /**
   * True while `frameBytes` more would keep the resend buffer within its bound; senders that find
   * it full wait. An empty buffer always takes one frame, so a frame larger than the bound still
   * goes (alone).
   */
  hasCapacity(frameBytes = 0): boolean {
    if (this.resendBuffer === null) return true;
    const held = this.resendBuffer.bytes;
    return held === 0 || held + frameBytes <= this.resendLimit;
  }

  /** Resolves once confirmations have made room for `frameBytes` more, or at once when closed. */
  waitForCapacity(frameBytes = 0): Promise<void> {
    if (this.isClosed || this.hasCapacity(frameBytes)) return Promise.resolve();
    return new Promise((resolve) => this.capacityWaiters.push({ frameBytes, wake: resolve }));
  }

  /** True while answers are held for a check that a failure cut off (see abandonAnswerCount). */
  get answersHeld(): boolean {
    return this.answerCount !== null;
  }

  /**
   * Sends `packet` as a blocking call that checks the answers to every call before it, and
   * resolves with how many more answers came before its own than there were calls waiting
   * (negative: fewer). Until its answer, which `isBarrierAnswer` recognises (a type no call before
   * it expects), answers are held instead of matched; then the calls before it take the last
   * answers, in order: a peer that executed a replayed command twice (HornetQ and Artemis, when
   * their reattach answer was older than what they had executed) sent the surplus first, for the
   * execution it had under way when the session moved. Any count but 0 means the peer's
   * numbering of our commands is not ours: `numberingBroken` is set.
   */
  countAnswersUpTo(
    packet: Packet,
    isBarrierAnswer: (response: ResponsePacket) => boolean,
    timeoutMs = this.options.callTimeoutMs,
  ): Promise<number> {
    const count: AnswerCount = this.answerCount ?? {
      isBarrierAnswer,
      answers: [],
      owed: this.callsWaitingFor(packet.type),
      call: null,
      extras: 0,
    };
    this.answerCount = count;
    return new Promise<number>((resolve, reject) => {
      const lineBefore = this.pendingCalls.length;
      this.startCall({
        packet,
        timeoutMs,
        frame: undefined,
        barrier: true,
        resolve: () => resolve(count.extras),
        reject: (error) => {
          if (this.answerCount === count) this.abandonAnswerCount(count);
          reject(error);
        },
      });
      if (this.pendingCalls.length > lineBefore) count.call = this.pendingCalls[lineBefore] ?? null;
    });
  }

  /** Calls in the line whose requests are of `type`: their answers are of the barrier's kind. */
  private callsWaitingFor(type: number): number {
    let calls = 0;
    for (let i = this.pendingHead; i < this.pendingCalls.length; i++) {
      if ((this.pendingCalls[i] as PendingCall).requestType === type) calls++;
    }
    return calls;
  }

  /**
   * Gives up a barrier call of countAnswersUpTo that is still out (its link failed): it rejects
   * with `error`, and the count goes on across the failure (see abandonAnswerCount).
   */
  cancelAnswerCount(error: Error): void {
    const call = this.answerCount?.call;
    if (call === undefined || call === null || call.settled) return;
    call.settled = true;
    if (--this.waitingCalls === 0) this.clearCallTimer();
    call.reject(error);
  }

  /**
   * Gives the channel a new id on its connection (the caller then resets it): for a session
   * re-created beside the broker session that still holds the old id, whose late packets the
   * connection then drops (RemotingConnection.retireChannel).
   */
  renumber(newId: number): void {
    this.conn.removeChannel(this.channelId);
    this.conn.retireChannel(this.channelId);
    this.channelId = newId;
    this.renumbered = true;
    this.conn.adoptChannel(this);
  }

  /**
   * After a reattach answer from a peer that is not ours, before the replay: waits until no call
   * is waiting for its answer, or `ms`. The peer goes on storing and answering what it had
   * received on the old link when it answered the reattach (it confirms a command only once
   * stored), and each answer that comes now marks a command that must not be replayed (see
   * replay's answersConfirm). A request lost with the link is never answered: the wait ends at `ms`.
   */
  awaitAnswersInFlight(ms: number): Promise<void> {
    // Held answers settle nothing until the next check: waiting would only wait.
    if (this.waitingCalls === 0 || this.answerCount !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.answersWaiter = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.answersWaiter = done;
    });
  }

  /** Called by the connection for every packet on this channel. */
  handlePacket(packet: Packet, size: number): void {
    if (packet.type === PacketType.PACKETS_CONFIRMED) {
      if (this.resendBuffer === null || this.brokenNumbering !== null) return;
      if (packet.commandId >= this.resendBuffer.nextCommandId) {
        this.conn.failOnPeerError(
          this.breakNumbering(
            `the peer confirmed command ${packet.commandId}, but this side has sent only commands 0 to ${this.resendBuffer.nextCommandId - 1}`,
          ),
        );
        return;
      }
      this.resendBuffer.clearUpTo(packet.commandId);
      this.confirmations.confirmUpTo(packet.commandId);
      this.limitReported = false;
      this.wakeCapacityWaiters();
      return;
    }
    // Counted once handled, not on arrival: a packet whose handler threw was not handled, and the
    // peer's replay after a reattach must number it as it did the first time.
    const commandId = requiresConfirmation(packet) ? this.lastReceivedId + 1 : -1;
    if (isResponse(packet)) {
      this.settleCall(packet);
      if (commandId >= 0) this.confirm(commandId, size);
      return;
    }
    if (this.handler === null) {
      throw new HornetQException(
        'UNSUPPORTED_PACKET',
        `no handler for ${packetTypeName(packet.type)} on channel ${this.id}`,
      );
    }
    this.handler(packet, commandId, size);
    if (commandId > this.lastReceivedId) this.lastReceivedId = commandId;
  }

  /**
   * Marks a received packet as handled; confirms to the peer each time a window's worth is
   * handled, or MAX_UNCONFIRMED_COMMANDS packets, whichever comes first: a window of tiny packets
   * (send answers, acknowledgements) would otherwise keep tens of thousands of frames alive in
   * the peer's resend buffer, which costs its garbage collector more than the confirmations cost.
   */
  confirm(commandId: number, size: number): void {
    if (commandId < 0) return;
    this.lastConfirmedId = commandId;
    // A confirmed packet is handled, whatever its handler does next.
    if (commandId > this.lastReceivedId) this.lastReceivedId = commandId;
    if (this.resendBuffer === null) return;
    this.unconfirmedBytes += size;
    if (
      this.unconfirmedBytes >= this.options.confirmationWindowSize ||
      ++this.unconfirmedCommands >= MAX_UNCONFIRMED_COMMANDS
    ) {
      this.flushConfirmations();
    }
  }

  /** Sends PacketsConfirmed for what was handled since the last one (timers and close call this). */
  flushConfirmations(): void {
    if (this.resendBuffer === null || this.unconfirmedBytes === 0 || this.conn.closed || this.holding) return;
    if (this.confirmationsEnded) return;
    this.unconfirmedBytes = 0;
    this.unconfirmedCommands = 0;
    this.conn.write(this.id, { type: PacketType.PACKETS_CONFIRMED, commandId: this.lastConfirmedId });
  }

  /**
   * Confirms what was handled, then nothing more: called just before the close request goes out,
   * since the peer drops the channel when it handles the close and packets already in flight keep
   * arriving. What arrives is still counted (a reattach reports it), only never confirmed.
   */
  endConfirmations(): void {
    this.flushConfirmations();
    this.confirmationsEnded = true;
  }

  /**
   * Rejects every call waiting for a response and forgets the tombstones: the answers will never
   * come (the connection is gone, or the command streams restart), so none may settle a later call.
   */
  returnBlocking(error: Error): void {
    for (const call of this.asideCalls.splice(0)) call.reject(error);
    this.answerCount = null;
    const calls = this.pendingCalls.slice(this.pendingHead);
    const queued = this.queuedCalls;
    this.pendingCalls = [];
    this.pendingHead = 0;
    this.queuedCalls = [];
    this.waitingCalls = 0;
    this.clearCallTimer();
    this.answersWaiter?.();
    for (const call of calls) if (!call.settled) call.reject(error);
    // Calls still waiting for their turn were never written: they fail the same way.
    for (const call of queued) call.reject(error);
  }

  /**
   * Releases the channel: pending calls and sends waiting for their confirmation fail with
   * `reason` (OBJECT_CLOSED by default), senders waiting for room are woken.
   */
  close(reason: Error = new HornetQException('OBJECT_CLOSED', `channel ${this.id} was closed`)): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.returnBlocking(reason);
    this.confirmations.rejectAll(reason);
    this.wakeCapacityWaiters(true);
    this.conn.removeChannel(this.id);
  }

  private settleCall(response: ResponsePacket): void {
    if (this.answerCount !== null) {
      this.countAnswer(this.answerCount, response);
      return;
    }
    // An answer nobody waits for (the line is empty) answers nothing this side asked: dropped.
    const call = this.takeOldestCall();
    if (call === undefined) return;
    if (call.requestId > this.answeredThrough) this.answeredThrough = call.requestId;
    if (call.settled) return; // a tombstone's late answer
    call.settled = true;
    if (--this.waitingCalls === 0) {
      this.clearCallTimer();
      this.answersWaiter?.();
    }
    if (response.type === PacketType.EXCEPTION) {
      call.reject(new HornetQException(response.code, response.message ?? response.code));
    } else {
      call.resolve(response);
    }
    this.startNextQueuedCall();
  }

  /** Holds an answer while a barrier is out; at the barrier's own, matches them (see countAnswersUpTo). */
  private countAnswer(count: AnswerCount, response: ResponsePacket): void {
    if (!count.isBarrierAnswer(response) || count.owed > 0) {
      if (count.answers.length >= this.mostAnswersHeld()) {
        // More answers than the calls in line could get even if the peer ran each twice: a peer
        // that goes on answering is not let fill the client's memory while the barrier is out.
        this.answerCount = null;
        this.conn.failOnPeerError(
          this.breakNumbering(
            `${count.answers.length + 1} answers came after a reattach for ${this.callsInLine()} calls in line`,
          ),
        );
        return;
      }
      if (count.isBarrierAnswer(response)) count.owed--;
      count.answers.push(response);
      return;
    }
    this.answerCount = null;
    const before: PendingCall[] = [];
    let barrier: PendingCall | undefined;
    while ((barrier = this.takeOldestCall()) !== undefined && barrier !== count.call) before.push(barrier);
    count.extras = count.answers.length - before.length;
    if (count.extras !== 0) {
      this.breakNumbering(
        `${count.answers.length} answers came for ${before.length} calls after a reattach: the peer executed a replayed command twice or lost an answer`,
      );
    }
    before.forEach((call, index) => {
      const answer = count.answers[index + count.extras];
      if (answer === undefined) this.settleUnanswered(call, 'its answer never came (the peer lost it)');
      else this.settleWith(call, answer);
    });
    if (barrier !== undefined) {
      if (count.extras === 0) this.answeredThrough = Math.max(this.answeredThrough, barrier.requestId);
      this.settleWith(barrier, response);
    }
    this.startNextQueuedCall();
  }

  private callsInLine(): number {
    return this.pendingCalls.length - this.pendingHead;
  }

  /** Answers held while a barrier is out, at most: each call in line answered twice (run twice). */
  private mostAnswersHeld(): number {
    return 2 * this.callsInLine();
  }

  /**
   * The barrier failed (the link went, or it timed out) before its answer. The count goes on:
   * the answers held stay held, every call keeps its place, the barrier stays as a tombstone and
   * its answer is owed; what arrives meanwhile (the peer's replay after the next reattach) is
   * held too, and the next check (countAnswersUpTo) matches them all.
   */
  private abandonAnswerCount(count: AnswerCount): void {
    count.owed++;
    count.call = null;
  }

  private settleWith(call: PendingCall, response: ResponsePacket): void {
    if (call.settled) return; // a tombstone takes its late answer
    call.settled = true;
    if (--this.waitingCalls === 0) this.clearCallTimer();
    if (response.type === PacketType.EXCEPTION) {
      call.reject(new HornetQException(response.code, response.message ?? response.code));
    } else {
      call.resolve(response);
    }
  }

  private settleUnanswered(call: PendingCall, why: string): void {
    if (call.settled) return;
    call.settled = true;
    if (--this.waitingCalls === 0) this.clearCallTimer();
    call.reject(
      new HornetQException(
        'CALL_OUTCOME_UNKNOWN',
        `No answer to ${packetTypeName(call.requestType)} on channel ${this.id}: ${why}. Whether it was applied is not known: repeat it only where doing it twice is harmless (a send with the same duplicate id is)`,
      ),
    );
  }

  /** At a reattach: calls whose requests the peer confirmed and that are still unanswered (see replay). */
  private settleConfirmedCalls(peerLastConfirmedId: number): void {
    for (;;) {
      if (this.pendingHead >= this.pendingCalls.length) return;
      const oldest = this.pendingCalls[this.pendingHead] as PendingCall;
      if (oldest.requestId < 0 || oldest.requestId > peerLastConfirmedId) return;
      this.takeOldestCall();
      this.settleUnanswered(
        oldest,
        `the peer confirmed it (command ${oldest.requestId}) when the session reattached, but its answer was lost`,
      );
    }
  }

  private breakNumbering(why: string): HornetQException {
    this.brokenNumbering ??= new HornetQException(
      'INTERNAL_ERROR',
      `The peer's count of the commands on channel ${this.id} is not this side's: ${why} (a client re-creates the session)`,
    );
    return this.brokenNumbering;
  }

  private takeOldestCall(): PendingCall | undefined {
    if (this.pendingHead >= this.pendingCalls.length) return undefined;
    const call = this.pendingCalls[this.pendingHead] as PendingCall;
    this.pendingCalls[this.pendingHead++] = undefined as unknown as PendingCall;
    if (this.pendingHead === this.pendingCalls.length) {
      this.pendingCalls = [];
      this.pendingHead = 0;
    } else if (this.pendingHead > 1024 && this.pendingHead * 2 > this.pendingCalls.length) {
      this.pendingCalls = this.pendingCalls.slice(this.pendingHead);
      this.pendingHead = 0;
    }
    return call;
  }

  private checkUnconfirmedLimit(held: ResendBuffer): void {
    const limit = this.options.unconfirmedLimit;
    if (limit === undefined || this.limitReported) return;
    if (held.bytes <= limit.bytes && held.size <= limit.commands) return;
    this.limitReported = true;
    process.nextTick(limit.exceeded);
  }

  private wakeCapacityWaiters(all = false): void {
    while (this.capacityWaiters.length > 0) {
      const head = this.capacityWaiters[0] as { frameBytes: number; wake: () => void };
      if (!all && !this.hasCapacity(head.frameBytes)) return;
      this.capacityWaiters.shift();
      head.wake();
    }
  }

  /** One timer per channel, not per call: it fires at the earliest deadline and rearms itself. */
  private scheduleCallTimer(deadline: number): void {
    if (deadline >= this.callTimerDeadline) return;
    this.clearCallTimer();
    this.callTimerDeadline = deadline;
    this.callTimer = setTimeout(() => this.expireCalls(), Math.max(0, deadline - Date.now()));
  }

  /** Rejects the calls past their deadline; they stay in the line as tombstones. */
  private expireCalls(): void {
    this.callTimer = null;
    this.callTimerDeadline = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (let i = this.pendingHead; i < this.pendingCalls.length; i++) {
      const call = this.pendingCalls[i] as PendingCall;
      if (call.settled) continue;
      if (call.deadline <= now) {
        call.settled = true;
        this.waitingCalls--;
        call.reject(
          new HornetQException(
            'CONNECTION_TIMEDOUT',
            `Timed out waiting for response when sending packet ${packetTypeName(call.requestType)} on channel ${this.id} of ${this.conn.remoteAddress}`,
          ),
        );
      } else {
        next = Math.min(next, call.deadline);
      }
    }
    if (next !== Infinity) this.scheduleCallTimer(next);
    if (this.unansweredTimedOutCalls >= MAX_UNANSWERED_TIMED_OUT_CALLS) {
      // Failing an already failed connection does nothing: once per connection at most.
      this.conn.fail(this.peerNotAnswering('failing the connection'));
    }
    this.startNextQueuedCall();
  }

  private peerNotAnswering(consequence: string): HornetQException {
    return new HornetQException(
      'CONNECTION_TIMEDOUT',
      `${this.unansweredTimedOutCalls} calls on channel ${this.id} of ${this.conn.remoteAddress} timed out and were never answered (at most ${MAX_UNANSWERED_TIMED_OUT_CALLS}): the peer has stopped answering; ${consequence}`,
    );
  }

  private clearCallTimer(): void {
    if (this.callTimer !== null) clearTimeout(this.callTimer);
    this.callTimer = null;
    this.callTimerDeadline = Infinity;
  }
}
