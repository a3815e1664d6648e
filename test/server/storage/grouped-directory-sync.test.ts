import { GroupedDirectorySync } from '../../../src/server/storage/grouped-directory-sync';

/** A directory sync the test completes by hand, counting how many were started. */
class ManualSync {
  started = 0;
  private pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  readonly sync = (): Promise<void> => {
    this.started++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  };

  complete(error: Error | null = null): void {
    for (const { resolve, reject } of this.pending.splice(0)) {
      if (error === null) resolve();
      else reject(error);
    }
  }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function settledState(promise: Promise<void>): () => 'pending' | 'resolved' | 'rejected' {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  return () => state;
}

describe('GroupedDirectorySync', () => {
  it('serves the requests of one turn with one sync', async () => {
    const manual = new ManualSync();
    const grouped = new GroupedDirectorySync(manual.sync);
    const requests = [grouped.request(), grouped.request(), grouped.request()].map(settledState);
    await turn();
    expect(manual.started).toBe(1);
    expect(requests.map((state) => state())).toEqual(['pending', 'pending', 'pending']);
    manual.complete();
    await turn();
    expect(requests.map((state) => state())).toEqual(['resolved', 'resolved', 'resolved']);
  });

  it('makes a request that comes while a sync runs wait for the next one', async () => {
    const manual = new ManualSync();
    const grouped = new GroupedDirectorySync(manual.sync);
    const first = settledState(grouped.request());
    await turn();
    const second = settledState(grouped.request());
    await turn();
    expect(manual.started).toBe(1);
    manual.complete();
    await turn();
    expect([first(), second()]).toEqual(['resolved', 'pending']);
    await turn();
    expect(manual.started).toBe(2);
    manual.complete();
    await turn();
    expect(second()).toBe('resolved');
  });

  it("gives a failed sync's error to its requesters, and the next request syncs again", async () => {
    const manual = new ManualSync();
    const grouped = new GroupedDirectorySync(manual.sync);
    const failed = grouped.request();
    await turn();
    const cause = new Error('EIO');
    manual.complete(cause);
    await expect(failed).rejects.toBe(cause);
    const retried = settledState(grouped.request());
    await turn();
    expect(manual.started).toBe(2);
    manual.complete();
    await turn();
    expect(retried()).toBe('resolved');
  });
});
