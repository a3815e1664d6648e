import { LivenessMonitor, type LivenessClock, type MonitoredLink } from '../../../src/core/remoting';

/** A link whose arrivals the test decides, recording what the monitor sends. */
class FakeLink implements MonitoredLink {
  received = false;
  readonly pings: number[] = [];
  flushes = 0;

  takeDataReceived(): boolean {
    const received = this.received;
    this.received = false;
    return received;
  }

  writePing(connectionTtl: number): void {
    this.pings.push(connectionTtl);
  }

  flushConfirmations(): void {
    this.flushes++;
  }
}

const T0 = 1_000_000;

describe('LivenessMonitor on its own timer (the client: pings every check period)', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  function started(ttl: number, checkPeriod: number) {
    const link = new FakeLink();
    const silences: { ttl: number; at: number }[] = [];
    const monitor = new LivenessMonitor(link, {
      ttl,
      pinging: true,
      onSilent: (reported) => silences.push({ ttl: reported, at: Date.now() - T0 }),
    });
    monitor.start(checkPeriod);
    return { link, silences, monitor };
  }

  it('fails a link at the first check a TTL after the last check that saw data, once, then stops', async () => {
    const { link, silences } = started(500, 100);
    expect(link.pings).toEqual([500]); // the first ping tells the peer our TTL
    // Data before every check for a second: alive throughout, pinged and flushed at each check.
    for (let i = 0; i < 10; i++) {
      link.received = true;
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(silences).toEqual([]);
    expect(link.pings).toHaveLength(11);
    expect(link.flushes).toBe(10);
    // Silence from here: the last check that saw data was at 1000 ms, so the link dies at 1500.
    await jest.advanceTimersByTimeAsync(499);
    expect(silences).toEqual([]);
    expect(link.pings).toHaveLength(15);
    await jest.advanceTimersByTimeAsync(1);
    expect(silences).toEqual([{ ttl: 500, at: 1500 }]);
    // Data arriving after the verdict changes nothing: the monitor stopped and holds no timer.
    link.received = true;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(silences).toHaveLength(1);
    expect(link.pings).toHaveLength(15);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a link with data within every TTL stays alive, though not every check sees data', async () => {
    const { link, silences, monitor } = started(300, 100);
    for (let i = 0; i < 20; i++) {
      // One arrival every 250 ms: never 300 ms between checks that saw data.
      if (i % 5 === 2) link.received = true;
      await jest.advanceTimersByTimeAsync(50);
    }
    expect(silences).toEqual([]);
    monitor.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a TTL of -1 never fails the link but still pings; a check period of -1 pings once and runs no timer', async () => {
    const endless = started(-1, 100);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(endless.silences).toEqual([]);
    expect(endless.link.pings).toHaveLength(601);
    expect(endless.link.pings.every((ttl) => ttl === -1)).toBe(true);
    endless.monitor.stop();

    const unchecked = started(500, -1);
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(unchecked.silences).toEqual([]);
    expect(unchecked.link.pings).toEqual([500]);
  });
});

describe('LivenessMonitor checked from outside (the broker: one sweep for every connection)', () => {
  it('answers instead of pinging, adopts a TTL set later, and reports the silence once', () => {
    let now = T0;
    const clock: LivenessClock = {
      now: () => now,
      every: () => {
        throw new Error('the broker drives the checks; the monitor starts no timer');
      },
    };
    const link = new FakeLink();
    const silences: number[] = [];
    const monitor = new LivenessMonitor(link, {
      ttl: 60_000,
      pinging: false,
      onSilent: (ttl) => silences.push(ttl),
    });
    const swept = new LivenessMonitor(new FakeLink(), {
      ttl: 60_000,
      pinging: false,
      onSilent: () => undefined,
      clock,
    });
    expect(swept.ttl).toBe(60_000);

    // The client's first ping asks for 1 s; the broker adopts it.
    monitor.ttl = 1000;
    link.received = true;
    expect(monitor.check(T0 + 100)).toBe(true);
    expect(monitor.check(T0 + 1099)).toBe(true);
    expect(link.pings).toEqual([]);
    expect(link.flushes).toBe(2);
    expect(monitor.check(T0 + 1100)).toBe(false);
    expect(silences).toEqual([1000]);
    expect(monitor.check(T0 + 5000)).toBe(false);
    expect(silences).toEqual([1000]);
    // An out-of-turn ping (a large frame's part arrived) carries the adopted TTL.
    monitor.ping();
    expect(link.pings).toEqual([1000]);

    // The injected clock dates the start: silence counts from the monitor's creation.
    now += 59_999;
    expect(swept.check()).toBe(true);
    now += 1;
    expect(swept.check()).toBe(false);
  });
});
