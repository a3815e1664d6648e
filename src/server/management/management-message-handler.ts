import type { CoreMessage } from '../../core/protocol';
import type { Logger } from '../../core/remoting';
import type { ManagementEndpoint } from './management-endpoint';
import type { BrokerManagement } from './broker-management';
import { ManagementResources } from './management-resources';
import {
  MalformedRequest,
  managementReply,
  readManagementRequest,
  replyAddressOf,
} from './management-request';

/** Routes a reply as a send to its address would be routed. */
export type ReplyRouter = (reply: CoreMessage) => void;

/**
 * Answers management messages as HornetQ 2.4's ManagementServiceImpl.handleMessage does: the
 * operation or attribute is run on its resource, and the reply (succeeded or not, with the result
 * or the error's text) goes to the request's JMSReplyTo. A failure never reaches the sending
 * session: it is the reply's content.
 */
export class ManagementMessageHandler implements ManagementEndpoint {
  constructor(
    readonly address: string,
    private readonly service: BrokerManagement,
    private readonly routeReply: ReplyRouter,
    private readonly logger: Logger,
  ) {}

  handle(message: CoreMessage, user: string | null): void {
    const replyTo = replyAddressOf(message);
    // What it changes is logged as done by its user (see BrokerManagement.as).
    const resources = new ManagementResources(this.service.as(`${user ?? 'anonymous'} (management address)`));
    void this.answer(message, resources).then(
      ({ succeeded, result }) => this.reply(succeeded, result, replyTo),
      // answer() settles every failure itself; this is the broker's own fault, logged.
      (error: unknown) => this.logger.error({ err: error }, 'management: answering a request failed'),
    );
  }

  private async answer(
    message: CoreMessage,
    resources: ManagementResources,
  ): Promise<{ succeeded: boolean; result: unknown }> {
    let what = 'a management request';
    try {
      const request = readManagementRequest(message);
      if (request.kind === 'operation') {
        what = `operation ${request.operation} on ${request.resource}`;
        return {
          succeeded: true,
          result: await resources.invoke(request.resource, request.operation, request.parameters),
        };
      }
      if (request.kind === 'attribute') {
        what = `attribute ${request.attribute} of ${request.resource}`;
        return {
          succeeded: true,
          result: await resources.attribute(request.resource, request.attribute),
        };
      }
      // HornetQ answers a message with neither an operation nor an attribute with an empty reply.
      return { succeeded: false, result: null };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const level = error instanceof MalformedRequest ? 'info' : 'warn';
      this.logger[level]({ reason: text }, `management: ${what} failed: ${text}`);
      return { succeeded: false, result: text };
    }
  }

  private reply(succeeded: boolean, result: unknown, replyTo: string | null): void {
    if (replyTo === null) return;
    try {
      this.routeReply(managementReply(succeeded, result, replyTo));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(
        { err: error, replyTo },
        `management: the reply to ${replyTo} could not be routed: ${reason}`,
      );
    }
  }
}
