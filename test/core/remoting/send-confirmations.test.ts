import { SendConfirmations, type ConfirmationWaiter } from '../../../src/core/remoting/send-confirmations';

/** A waiter that records how it settled, and fails the test if it settles twice. */
function recorder(): ConfirmationWaiter & { outcome: string | null } {
  const waiter = {
    outcome: null as string | null,
    resolve() {
      if (waiter.outcome !== null) throw new Error('settled twice');
      waiter.outcome = 'confirmed';
    },
    reject(error: Error) {
      if (waiter.outcome !== null) throw new Error('settled twice');
      waiter.outcome = error.message;
    },
  };
  return waiter;
}

test('a confirmation settles every waiter up to its id, in order, and none after', () => {
  const confirmations = new SendConfirmations();
  const waiters = [0, 2, 3, 7].map((id) => {
    const waiter = recorder();
    confirmations.expect(id, waiter);
    return waiter;
  });
  confirmations.confirmUpTo(3);
  expect(waiters.map((w) => w.outcome)).toEqual(['confirmed', 'confirmed', 'confirmed', null]);
  expect(confirmations.size).toBe(1);
  confirmations.confirmUpTo(3);
  confirmations.confirmUpTo(10);
  expect(waiters[3]?.outcome).toBe('confirmed');
  expect(confirmations.size).toBe(0);
});

test('a refusal settles only the waiter of its command; a refusal of a command nobody waits for says so', () => {
  const confirmations = new SendConfirmations();
  const waiters = [1, 2, 3, 4, 5].map((id) => {
    const waiter = recorder();
    confirmations.expect(id, waiter);
    return waiter;
  });
  expect(confirmations.refuse(3, new Error('refused 3'))).toBe(true);
  expect(confirmations.refuse(1, new Error('refused 1'))).toBe(true);
  expect(confirmations.refuse(3, new Error('again'))).toBe(false);
  expect(confirmations.refuse(9, new Error('unknown'))).toBe(false);
  confirmations.confirmUpTo(5);
  expect(waiters.map((w) => w.outcome)).toEqual([
    'refused 1',
    'confirmed',
    'refused 3',
    'confirmed',
    'confirmed',
  ]);
});

test('take hands a waiter over (to wait for a resend under a new id); rejectAll settles the rest', () => {
  const confirmations = new SendConfirmations();
  const kept = recorder();
  const lost = recorder();
  confirmations.expect(10, lost);
  confirmations.expect(11, kept);
  const taken = confirmations.take(11);
  expect(taken).toBe(kept);
  confirmations.rejectAll(new Error('fate unknown'));
  expect(lost.outcome).toBe('fate unknown');
  expect(kept.outcome).toBeNull();
  // A re-created session numbers from 0 again.
  confirmations.expect(0, kept);
  confirmations.confirmUpTo(0);
  expect(kept.outcome).toBe('confirmed');
});

test('ids must grow: a waiter for an older command is a bug, refused at once', () => {
  const confirmations = new SendConfirmations();
  confirmations.expect(5, recorder());
  expect(() => confirmations.expect(5, recorder())).toThrow(/ids must grow/);
});

test('a long pipeline stays bounded: settled entries are compacted away', () => {
  const confirmations = new SendConfirmations();
  for (let id = 0; id < 100_000; id++) {
    confirmations.expect(id, recorder());
    if (id % 100 === 99) confirmations.confirmUpTo(id - 50);
  }
  expect(confirmations.size).toBe(50);
  // Refusals in the middle of a long line find their command.
  expect(confirmations.refuse(99_970, new Error('x'))).toBe(true);
  expect(confirmations.size).toBe(49);
  expect((confirmations as unknown as { entries: unknown[] }).entries.length).toBeLessThan(5_000);
});
