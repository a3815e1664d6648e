import { HornetQException, type QueueStats } from '../../core/protocol';
import type { Queue } from '../postoffice/queue';

/** The most queues one answer carries, whatever the client asks for. */
export const MAX_QUEUE_STATS_PAGE = 1000;
/**
 * The most bytes of queues one answer carries: far under the frame cap however long the names
 * are, so that the answer's size never grows with the broker's state.
 */
export const MAX_QUEUE_STATS_PAGE_BYTES = 1024 * 1024;

/** Fixed part of one queue in the answer: three length prefixes and a null flag, two booleans, an int, seven longs. */
const FIXED_BYTES = 4 + 4 + 1 + 4 + 2 + 4 + 7 * 8;

/**
 * The queues from index `start` (creation order), at most `maxCount` of them and at most
 * MAX_QUEUE_STATS_PAGE / MAX_QUEUE_STATS_PAGE_BYTES, and whether more follow. A page always holds
 * at least one queue when one is left, so a client that asks again from start + count ends.
 */
export function queueStatsPage(
  queues: Iterable<Queue>,
  start: number,
  maxCount: number,
): { queues: QueueStats[]; more: boolean } {
  if (!Number.isInteger(start) || start < 0) {
    throw new HornetQException(
      'ILLEGAL_STATE',
      `queue statistics start must be >= 0 (actual value: ${start})`,
    );
  }
  if (!Number.isInteger(maxCount) || maxCount < 1) {
    throw new HornetQException(
      'ILLEGAL_STATE',
      `queue statistics page size must be >= 1 (actual value: ${maxCount})`,
    );
  }
  const limit = Math.min(maxCount, MAX_QUEUE_STATS_PAGE);
  const page: QueueStats[] = [];
  let bytes = 0;
  let index = 0;
  for (const queue of queues) {
    if (index++ < start) continue;
    const size = encodedSizeAtMost(queue);
    if (page.length >= limit || (page.length > 0 && bytes + size > MAX_QUEUE_STATS_PAGE_BYTES)) {
      return { queues: page, more: true };
    }
    page.push(queueStatsOf(queue));
    bytes += size;
  }
  return { queues: page, more: false };
}

/** UTF-8 takes at most 3 bytes per UTF-16 unit. */
function encodedSizeAtMost(queue: Queue): number {
  const filter = queue.filter?.expression ?? '';
  return FIXED_BYTES + 3 * (queue.name.length + queue.address.length + filter.length);
}

function queueStatsOf(queue: Queue): QueueStats {
  return {
    name: queue.name,
    address: queue.address,
    filter: queue.filter?.expression ?? null,
    durable: queue.durable,
    temporary: queue.temporary,
    consumerCount: queue.consumerCount,
    messageCount: queue.messageCount,
    deliveringCount: queue.deliveringCount,
    scheduledCount: queue.scheduledCount,
    messagesAdded: queue.messagesAdded,
    messagesAcknowledged: queue.messagesAcknowledged,
    messagesExpired: queue.messagesExpired,
    messagesKilled: queue.messagesKilled,
  };
}
