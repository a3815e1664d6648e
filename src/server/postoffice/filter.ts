import type { CoreMessage } from '../../core/protocol';

/** Decides whether a message belongs to a queue or a consumer (a JMS selector, for instance). */
export interface Filter {
  readonly expression: string;
  match(message: CoreMessage): boolean;
}
