import fc from 'fast-check';
import { ResendBuffer } from '../../../src/core/remoting/resend-buffer';

/** A frame whose bytes name its command id, so order and identity can be checked. */
function frame(id: number, length = 8): Buffer {
  const buffer = Buffer.alloc(Math.max(length, 4));
  buffer.writeUInt32BE(id, 0);
  return buffer;
}

function heldIds(buffer: ResendBuffer): number[] {
  return [...buffer.frames()].map((f) => f.readUInt32BE(0));
}

describe('ResendBuffer', () => {
  it('starts empty with command id 0', () => {
    const buffer = new ResendBuffer();
    expect(buffer.size).toBe(0);
    expect(buffer.bytes).toBe(0);
    expect(buffer.peakBytes).toBe(0);
    expect(buffer.nextCommandId).toBe(0);
    expect([...buffer.frames()]).toEqual([]);
  });

  it('holds pushed frames in order and counts their bytes', () => {
    const buffer = new ResendBuffer();
    buffer.push(frame(0, 10));
    buffer.push(frame(1, 20));
    buffer.push(frame(2, 30));
    expect(heldIds(buffer)).toEqual([0, 1, 2]);
    expect(buffer.size).toBe(3);
    expect(buffer.bytes).toBe(60);
    expect(buffer.peakBytes).toBe(60);
    expect(buffer.nextCommandId).toBe(3);
  });

  it('returns the same frame objects it was given (no copies)', () => {
    const buffer = new ResendBuffer();
    const f = frame(0);
    buffer.push(f);
    expect([...buffer.frames()][0]).toBe(f);
  });

  it('clearUpTo drops frames up to and including the confirmed id', () => {
    const buffer = new ResendBuffer();
    for (let i = 0; i < 5; i++) buffer.push(frame(i, 10 + i));
    expect(buffer.clearUpTo(1)).toBe(2);
    expect(heldIds(buffer)).toEqual([2, 3, 4]);
    expect(buffer.bytes).toBe(12 + 13 + 14);
    expect(buffer.nextCommandId).toBe(5);
  });

  it('ignores a confirmation of what was already cleared', () => {
    const buffer = new ResendBuffer();
    for (let i = 0; i < 4; i++) buffer.push(frame(i));
    buffer.clearUpTo(2);
    expect(buffer.clearUpTo(1)).toBe(0);
    expect(buffer.clearUpTo(2)).toBe(0);
    expect(buffer.clearUpTo(-1)).toBe(0);
    expect(heldIds(buffer)).toEqual([3]);
    expect(buffer.nextCommandId).toBe(4);
  });

  it('a confirmation beyond what was sent clears what is held and never moves the numbering on', () => {
    const buffer = new ResendBuffer();
    buffer.push(frame(0));
    buffer.push(frame(1));
    expect(buffer.accounts(9)).toBe(false);
    expect(buffer.clearUpTo(9)).toBe(2);
    expect(buffer.size).toBe(0);
    expect(buffer.nextCommandId).toBe(2);
    // The next frame is command 2, whatever the peer claimed: confirming 2 drops it, 1 does not.
    buffer.push(frame(2));
    expect(buffer.clearUpTo(1)).toBe(0);
    expect(heldIds(buffer)).toEqual([2]);
    expect(buffer.clearUpTo(2)).toBe(1);
  });

  it('accounts for an id from the last one dropped to the last one sent, and for nothing else', () => {
    const buffer = new ResendBuffer();
    expect(buffer.accounts(-1)).toBe(true);
    expect(buffer.accounts(0)).toBe(false);
    for (let i = 0; i < 5; i++) buffer.push(frame(i));
    buffer.clearUpTo(1);
    // Commands 0 and 1 are gone: a peer that now says it has only command 0 lost one whose frame
    // cannot be sent again; one that says 5 counts a command never sent.
    expect([-1, 0, 1, 2, 3, 4, 5].map((id) => buffer.accounts(id))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('keeps the peak after frames are cleared', () => {
    const buffer = new ResendBuffer();
    buffer.push(frame(0, 100));
    buffer.push(frame(1, 50));
    buffer.clearUpTo(0);
    expect(buffer.bytes).toBe(50);
    expect(buffer.peakBytes).toBe(150);
    buffer.push(frame(2, 60));
    expect(buffer.bytes).toBe(110);
    expect(buffer.peakBytes).toBe(150);
    buffer.push(frame(3, 100));
    expect(buffer.peakBytes).toBe(210);
  });

  it('grows past 64 entries keeping order, also when the ring has wrapped', () => {
    const buffer = new ResendBuffer();
    // Move the head into the middle of the initial ring so that growth must unwrap it.
    for (let i = 0; i < 40; i++) buffer.push(frame(i, 4));
    buffer.clearUpTo(29);
    for (let i = 40; i < 300; i++) buffer.push(frame(i, 4));
    const expected = Array.from({ length: 270 }, (_, k) => k + 30);
    expect(heldIds(buffer)).toEqual(expected);
    expect(buffer.size).toBe(270);
    expect(buffer.bytes).toBe(270 * 4);
    expect(buffer.nextCommandId).toBe(300);
    expect(buffer.clearUpTo(199)).toBe(170);
    expect(heldIds(buffer)).toEqual(expected.slice(170));
  });

  it('reset forgets every frame and restarts the count at 0', () => {
    const buffer = new ResendBuffer();
    for (let i = 0; i < 70; i++) buffer.push(frame(i));
    buffer.clearUpTo(5);
    buffer.reset();
    expect(buffer.size).toBe(0);
    expect(buffer.bytes).toBe(0);
    expect(buffer.nextCommandId).toBe(0);
    expect([...buffer.frames()]).toEqual([]);
    buffer.push(frame(0));
    expect(buffer.clearUpTo(0)).toBe(1);
    expect(buffer.size).toBe(0);
  });

  it('property: held frames are exactly those with id > last confirmed, in order, and bytes is their sum', () => {
    type Op =
      { kind: 'push'; length: number } | { kind: 'confirm'; back: number } | { kind: 'beyond'; by: number };
    // A confirmation beyond what was sent (a broken peer) clears what is held and nothing more.
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({ kind: fc.constant('push' as const), length: fc.integer({ min: 4, max: 64 }) }),
      },
      {
        weight: 3,
        arbitrary: fc.record({ kind: fc.constant('confirm' as const), back: fc.nat({ max: 80 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('beyond' as const), by: fc.integer({ min: 1, max: 5 }) }),
      },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const buffer = new ResendBuffer();
        // The model: every frame ever pushed, by command id, and the highest id confirmed.
        const sent: number[] = [];
        let lastConfirmed = -1;
        let nextId = 0;
        let peak = 0;
        for (const step of ops) {
          if (step.kind === 'push') {
            const id = nextId++;
            sent[id] = step.length;
            buffer.push(frame(id, step.length));
          } else {
            // Confirmations arrive in order: a peer never confirms less than before, but may
            // repeat itself or (beyond) confirm ids that were never sent.
            const target =
              step.kind === 'confirm'
                ? Math.max(lastConfirmed, nextId - 1 - step.back)
                : Math.max(lastConfirmed, nextId - 1) + step.by;
            expect(buffer.accounts(target)).toBe(target < nextId);
            buffer.clearUpTo(target);
            lastConfirmed = Math.min(target, nextId - 1);
          }
          const expectedIds: number[] = [];
          let expectedBytes = 0;
          for (let id = lastConfirmed + 1; id < nextId; id++) {
            expectedIds.push(id);
            expectedBytes += sent[id] as number;
          }
          peak = Math.max(peak, expectedBytes);
          expect(heldIds(buffer)).toEqual(expectedIds);
          expect(buffer.bytes).toBe(expectedBytes);
          expect(buffer.size).toBe(expectedIds.length);
          expect(buffer.nextCommandId).toBe(nextId);
          expect(buffer.peakBytes).toBe(peak);
          expect([...buffer.frames()].map((f) => f.length)).toEqual(expectedIds.map((id) => sent[id]));
        }
      }),
      { numRuns: 200 },
    );
  });
});
