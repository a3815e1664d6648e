// resume: bench/resume.mjs (broker, fault proxy and client in one process, as before) in a child
// process of its own, so that it can be stopped on a timeout: 50 cuts, each with a message
// waiting in the resend buffer; time from the link's return to that message's arrival
// (reconnect + reattach + replay + delivery), p50 and p99.
import { ProcessGroup, withTimeout } from '../lib/processes.mjs';

export default {
  name: 'resume',
  repeated: false,
  async run(options) {
    const group = new ProcessGroup();
    const base = { peer: 'ours', scenario: 'resume' };
    try {
      const child = group.startServer('resume.mjs', { RESUME_CUTS: String(options.cuts) });
      const line = await withTimeout(
        child.waitFor((l) => l.scenario === 'resume'),
        options.timeout * 1000,
        'resume',
        () => group.stopAll(0),
      );
      await child.exited;
      return [{ ...base, ...line }];
    } catch (error) {
      return [{ ...base, error: String(error.message) }];
    } finally {
      await group.stopAll();
    }
  },
};
