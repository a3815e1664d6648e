import type { CoreMessage } from '../../core/protocol';

/**
 * Where sessions hand the messages sent to the management address (HornetQ's
 * ServerSessionImpl.handleManagementMessage): the session has checked `manage` on `address`.
 */
export interface ManagementEndpoint {
  readonly address: string;
  /** Runs the request of `user` and routes the reply to its JMSReplyTo; never throws. */
  handle(message: CoreMessage, user: string | null): void;
}
