import { packetTypeName, type Packet, type ResponsePacket } from '../protocol';
import { requiresConfirmation } from '../protocol/packets';
import type { ClientOptions } from './client-options';
import {
  awaitHeldAnswer,
  deadLinkNoticedWithin,
  heldCallChannelTimeout,
  type FailoverWatch,
  type HeldCallTimes,
} from './held-call';

/** What a session's calls need from its channel. */
export interface CallChannel {
  /** -1: the channel keeps no resend buffer, so nothing it sent is replayed after a failure. */
  readonly confirmationWindowSize: number;
  sendBlocking(packet: Packet, timeoutMs?: number, frame?: Buffer): Promise<ResponsePacket>;
}

/** The settings that bound a session's calls. */
export type CallSettings = Pick<
  ClientOptions,
  'callTimeout' | 'connectionTTL' | 'clientFailureCheckPeriod' | 'callFailoverTimeout'
>;

/**
 * The one way a session waits for the broker's answer to a request, so that one rule decides
 * when a late answer means the request failed. On a channel with a resend buffer a counted
 * request is held for replay until the broker confirms it, so a missing answer at call-timeout
 * does not mean it failed: the call waits for the failover to decide (see awaitHeldAnswer).
 * Without a resend buffer nothing is replayed, and call-timeout is the end of it.
 */
export class SessionCalls {
  private readonly times: HeldCallTimes;

  constructor(
    private readonly channel: CallChannel,
    settings: CallSettings,
    private readonly watch: FailoverWatch,
  ) {
    this.times = {
      callTimeout: settings.callTimeout,
      deadLinkNoticedWithin: deadLinkNoticedWithin(settings.connectionTTL, settings.clientFailureCheckPeriod),
      callFailoverTimeout: settings.callFailoverTimeout,
    };
  }

  /**
   * Sends `packet` (already encoded as `frame`, when given) and resolves with its answer; `what`
   * names the call in the error that says its outcome is not known.
   */
  call(packet: Packet, what = packetTypeName(packet.type), frame?: Buffer): Promise<ResponsePacket> {
    if (this.channel.confirmationWindowSize < 0 || !requiresConfirmation(packet)) {
      return this.channel.sendBlocking(packet, this.times.callTimeout, frame);
    }
    const answer = this.channel.sendBlocking(packet, heldCallChannelTimeout(this.times), frame);
    return awaitHeldAnswer(answer, what, this.times, this.watch);
  }

  /**
   * A call that fails at call-timeout whatever is held: for the calls a failover makes itself
   * (waiting for the failover to decide would wait for itself, and a timeout there starts the
   * next attempt), and for a session's close, which ends the session whatever the broker did.
   */
  callWithinTimeout(packet: Packet): Promise<ResponsePacket> {
    return this.channel.sendBlocking(packet, this.times.callTimeout);
  }
}
