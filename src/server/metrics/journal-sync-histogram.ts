import { Histogram } from 'prom-client';
import type { JournalName } from '../storage/create-journal-storage';

/**
 * Upper bounds (seconds) of the journal sync histogram: from a fast NVMe fdatasync (~100 µs) to a
 * stalled disk (seconds). Fixed, so that every broker's series aggregate.
 */
export const SYNC_SECONDS_BUCKETS: readonly number[] = Object.freeze([
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
]);

const JOURNALS: readonly JournalName[] = ['bindings', 'messages'];

/** hornetq_journal_sync_seconds, labelled by journal. */
export type JournalSyncHistogram = Histogram<'journal'>;

/**
 * The broker's fdatasync timings. Made by the broker (it observes each group commit) in no
 * registry: the BrokerMetrics serving that broker register it in theirs while it is started.
 * Both journals' series exist from the start, at 0.
 */
export function createJournalSyncHistogram(): JournalSyncHistogram {
  const histogram = new Histogram({
    name: 'hornetq_journal_sync_seconds',
    help: 'Time each group commit of a journal spent in fdatasync.',
    labelNames: ['journal'],
    buckets: [...SYNC_SECONDS_BUCKETS],
    registers: [],
  });
  for (const journal of JOURNALS) histogram.zero({ journal });
  return histogram;
}
