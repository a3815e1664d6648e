// A consumer whose producer has finished gives up after `idleMs` without a new message (as the
// peers harness does), so a stalled run reports what arrived instead of hanging.
import { clearInterval, setInterval } from 'node:timers';

export function watchForStall(progress, idleMs, onStall) {
  let last = progress();
  let lastChangeAt = Date.now();
  const timer = setInterval(() => {
    const now = progress();
    if (now !== last) {
      last = now;
      lastChangeAt = Date.now();
    } else if (Date.now() - lastChangeAt > idleMs) {
      clearInterval(timer);
      onStall();
    }
  }, 100);
  return () => clearInterval(timer);
}
