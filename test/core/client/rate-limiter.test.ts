import { RateLimiter } from '../../../src/core/client/rate-limiter';

describe('RateLimiter', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('lets one permit through at once, then one per interval, in the order asked', async () => {
    const limiter = new RateLimiter(10); // one per 100 ms
    expect(limiter.take()).toBeUndefined();
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => limiter.take()?.then(() => order.push(n)));
    expect(waits.every((w) => w !== undefined)).toBe(true);
    await jest.advanceTimersByTimeAsync(99);
    expect(order).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(order).toEqual([1]);
    await jest.advanceTimersByTimeAsync(200);
    expect(order).toEqual([1, 2, 3]);
  });

  it('does not bank permits over an idle spell: a burst after a pause is paced too', async () => {
    const limiter = new RateLimiter(10);
    expect(limiter.take()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(limiter.take()).toBeUndefined();
    const next = limiter.take();
    expect(next).not.toBeUndefined();
    limiter.close();
  });

  it('close releases every waiter', async () => {
    const limiter = new RateLimiter(1);
    limiter.take();
    let released = false;
    void limiter.take()?.then(() => (released = true));
    limiter.close();
    await jest.advanceTimersByTimeAsync(0);
    expect(released).toBe(true);
  });
});
