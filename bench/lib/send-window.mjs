// Keeps up to `limit` sends outstanding: each send is a promise (for a durable send with
// block-on-durable-send, settled by the broker's confirmation), and a new one starts as soon as
// one settles — a sliding window, not batches, so the pipe never drains between batches.
export async function sendAllWithWindow(count, limit, sendOne, beforeEach = null) {
  let inFlight = 0;
  let failure = null;
  let wakeSender = null;
  const settled = () => {
    inFlight--;
    const wake = wakeSender;
    wakeSender = null;
    wake?.();
  };
  const failed = (error) => {
    failure ??= error;
    settled();
  };
  for (let seq = 0; seq < count; seq++) {
    if (beforeEach !== null) await beforeEach(seq);
    while (inFlight >= limit) await new Promise((resolve) => (wakeSender = resolve));
    if (failure !== null) throw failure;
    inFlight++;
    sendOne(seq).then(settled, failed);
  }
  while (inFlight > 0) await new Promise((resolve) => (wakeSender = resolve));
  if (failure !== null) throw failure;
}
