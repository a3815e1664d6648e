// ha-failover: our own shared-store pair (issue 26 item 5). For each journal size of
// --ha-journal-messages (0, 100 000, 1 000 000 durable messages of --size bytes written first),
// bench/ha-failover.mjs in a child process of its own: a live and a backup broker (one process
// each) on one data directory, --kills kill -9s of the live (at most --ha-large-kills when the
// journal holds 1 000 000 messages or more: each takeover loads all of them), each timed from the
// kill to the backup accepting connections and to the first message our ha client gets through it,
// with the backup's journal load time alongside. One line per journal size.
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';

/** Per kill: a takeover that loads the journal, and the killed side's restart as backup. */
const SECONDS_PER_KILL = 120;
const LARGE_JOURNAL = 1_000_000;

export default {
  name: 'ha-failover',
  repeated: false,
  async run(options) {
    const lines = [];
    for (const journalMessages of options.haJournalMessages) {
      const kills =
        journalMessages >= LARGE_JOURNAL ? Math.min(options.kills, options.haLargeKills) : options.kills;
      lines.push(await measure(options, journalMessages, kills));
    }
    return lines;
  },
};

async function measure(options, journalMessages, kills) {
  const base = { peer: 'ours', scenario: 'ha-failover', journal_messages: journalMessages };
  const group = new ProcessGroup();
  // Writing a million messages first takes as long as a throughput measurement or two.
  const timeoutMs = (options.timeout * 2 + kills * SECONDS_PER_KILL) * 1000;
  try {
    const child = group.start('ha-failover.mjs', {
      HA_JOURNAL_MESSAGES: String(journalMessages),
      HA_KILLS: String(kills),
      SIZE: String(options.size),
    });
    const line = await withTimeout(
      child.waitFor((l) => l.scenario === 'ha-failover'),
      timeoutMs,
      `ha-failover with ${journalMessages} messages`,
      // With a grace period: the driver's SIGTERM handler stops the pair it started.
      () => group.stopAll(5000),
    );
    await child.exited;
    return { ...base, ...line };
  } catch (error) {
    return { ...base, error: String(error.message) };
  } finally {
    await group.stopAll();
  }
}
