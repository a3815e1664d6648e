import type { Queue } from '../postoffice/queue';

/** One queue a message goes to, and what its reference there starts with. */
export interface QueueTarget {
  queue: Queue;
  /** Deliveries already made (a message loaded from storage may have had some). */
  deliveryCount: number;
  /** Epoch ms before which it is not delivered (scheduled or redelivery-delayed); 0 for none. */
  scheduledTime: number;
}
