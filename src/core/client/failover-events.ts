import type { HornetQException } from '../protocol';

/** HornetQ's FailoverEventType. */
export const FailoverEventType = {
  FAILURE_DETECTED: 'FAILURE_DETECTED',
  FAILOVER_COMPLETED: 'FAILOVER_COMPLETED',
  FAILOVER_FAILED: 'FAILOVER_FAILED',
} as const;
export type FailoverEventType = (typeof FailoverEventType)[keyof typeof FailoverEventType];

export interface FailoverEvent {
  type: FailoverEventType;
  /** FAILOVER_COMPLETED only: true when every session was reattached, false when any was re-created. */
  reattached?: boolean;
  /**
   * FAILOVER_COMPLETED only: the node now served, as the topology names it (after a failover to a
   * backup: the backup's node; a shared-store HornetQ pair keeps one node id), null if not known.
   */
  nodeId?: string | null;
  cause?: unknown;
}

export type FailoverEventListener = (event: FailoverEvent) => void;

/**
 * Told once per connection failure, after the factory has dealt with it: `failedOver` true when
 * the sessions carry on (reattached or re-created), false when they could not and are closed.
 */
export type SessionFailureListener = (error: HornetQException, failedOver: boolean) => void;

/** Counters since the factory was created. */
export interface FailoverStatistics {
  /** Failures survived by reattaching every session. */
  reattaches: number;
  /** Failures survived by re-creating sessions. */
  reconnects: number;
  /** Commands the client re-sent after reattaching, all sessions. */
  replayedCommands: number;
  /**
   * Durable sends sent again to a re-created session because the lost one never confirmed them
   * (duplicate-id-on-durable-send), all sessions.
   */
  resentDurableSends: number;
  /** Bytes held now awaiting confirmation, summed over sessions. */
  resendBufferBytes: number;
  /** The most one session has held at any moment. */
  resendBufferPeakBytes: number;
}
