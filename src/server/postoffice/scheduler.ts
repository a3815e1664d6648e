import type { MessageReference } from './message-reference';

/** Where a reference goes when its time comes: behind the queue (a new message) or ahead (a redelivery). */
export type SchedulePosition = 'head' | 'tail';

export interface ScheduledReference {
  readonly reference: MessageReference;
  readonly time: number;
  readonly position: SchedulePosition;
  /** Breaks ties in scheduling order, so equal times keep the order they were scheduled in. */
  readonly sequence: number;
}

/** Told, in time order, of the references whose time has come. */
export type ReleaseFunction = (due: ScheduledReference[]) => void;

/** Node fires a longer timeout after 1 ms; a far time is reached in steps of this. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * References waiting for a time (scheduled delivery, redelivery delay) in a binary min-heap by
 * time, with a single timer set for the earliest: one timer per queue however many messages wait.
 */
export class ScheduledDeliveries {
  private readonly heap: ScheduledReference[] = [];
  private sequence = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;

  constructor(private readonly release: ReleaseFunction) {}

  get size(): number {
    return this.heap.length;
  }

  schedule(reference: MessageReference, time: number, position: SchedulePosition): void {
    this.push({ reference, time, position, sequence: this.sequence++ });
    this.arm();
  }

  /** The waiting references in time order, without taking them (browsing, statistics). */
  snapshot(): ScheduledReference[] {
    return [...this.heap].sort(compare);
  }

  /**
   * Takes out the given references (management removed or moved them); the rest keep their order.
   * A sorted array is a valid heap, so the heap is rebuilt by sorting what remains.
   */
  remove(references: ReadonlySet<MessageReference>): void {
    if (references.size === 0) return;
    const kept = this.heap.filter((entry) => !references.has(entry.reference)).sort(compare);
    this.heap.splice(0, this.heap.length, ...kept);
    this.disarm();
    this.arm();
  }

  /** Takes every waiting reference and stops the timer (the queue is deleted or the broker stops). */
  clear(): MessageReference[] {
    this.disarm();
    return this.heap.splice(0).map((entry) => entry.reference);
  }

  /** Stops the timer and keeps the references (broker stop: durable ones are in storage). */
  stop(): void {
    this.disarm();
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = Date.now();
    const due: ScheduledReference[] = [];
    while (this.heap.length > 0 && (this.heap[0] as ScheduledReference).time <= now) due.push(this.pop());
    this.arm();
    if (due.length > 0) this.release(due);
  }

  /** (Re)sets the timer for the earliest time, if it is not already set for it. */
  private arm(): void {
    const first = this.heap[0];
    if (first === undefined || first.time >= this.timerAt) return;
    this.disarm();
    this.timerAt = first.time;
    const delay = Math.min(Math.max(first.time - Date.now(), 0), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.fire(), delay);
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  private push(entry: ScheduledReference): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[parent] as ScheduledReference, entry) <= 0) break;
      heap[i] = heap[parent] as ScheduledReference;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): ScheduledReference {
    const heap = this.heap;
    const top = heap[0] as ScheduledReference;
    const last = heap.pop() as ScheduledReference;
    if (heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length &&
        compare(heap[right] as ScheduledReference, heap[left] as ScheduledReference) < 0
          ? right
          : left;
      if (compare(last, heap[child] as ScheduledReference) <= 0) break;
      heap[i] = heap[child] as ScheduledReference;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function compare(a: ScheduledReference, b: ScheduledReference): number {
  return a.time - b.time || a.sequence - b.sequence;
}
