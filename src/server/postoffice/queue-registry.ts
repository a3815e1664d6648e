import { HornetQException } from '../../core/protocol';
import type { Queue } from './queue';

/**
 * The broker's queues by name and by the address they are bound to, with the limit on how many
 * there may be (maxQueues: every queue holds memory and a client can ask for one). Also remembers
 * orphaned temporary queues, whose connection has gone while another connection still consumes
 * from them. Only bookkeeping: storage and the queues' messages are the post office's.
 */
export class QueueRegistry {
  private readonly queues = new Map<string, Queue>();
  private readonly bindings = new Map<string, Queue[]>();
  private readonly orphans = new Set<Queue>();

  constructor(private readonly maxQueues: number) {}

  /** Refuses a new queue of this name: one exists already, or the broker has maxQueues. */
  checkRoomFor(name: string): void {
    if (this.queues.has(name)) {
      throw new HornetQException('QUEUE_EXISTS', `Queue ${name} already exists`);
    }
    if (this.queues.size >= this.maxQueues) {
      throw new HornetQException(
        'ILLEGAL_STATE',
        `Cannot create queue ${name}: the broker already has ${this.maxQueues} queues, the most it allows (maxQueues)`,
      );
    }
  }

  /** Adds a queue without checking the limit (loading what storage holds is never refused). */
  add(queue: Queue): void {
    this.queues.set(queue.name, queue);
    const bound = this.bindings.get(queue.address);
    if (bound === undefined) this.bindings.set(queue.address, [queue]);
    else bound.push(queue);
  }

  /** Removes a queue; true when its address has no queue left (so it forgets what it remembered). */
  remove(queue: Queue): boolean {
    this.queues.delete(queue.name);
    this.orphans.delete(queue);
    const bound = (this.bindings.get(queue.address) ?? []).filter((q) => q !== queue);
    if (bound.length > 0) {
      this.bindings.set(queue.address, bound);
      return false;
    }
    this.bindings.delete(queue.address);
    return true;
  }

  get(name: string): Queue | undefined {
    return this.queues.get(name);
  }

  require(name: string): Queue {
    const queue = this.queues.get(name);
    if (queue === undefined)
      throw new HornetQException('QUEUE_DOES_NOT_EXIST', `Queue ${name} does not exist`);
    return queue;
  }

  /** The queues in creation order, without copying them. */
  values(): IterableIterator<Queue> {
    return this.queues.values();
  }

  get size(): number {
    return this.queues.size;
  }

  boundTo(address: string): readonly Queue[] {
    return this.bindings.get(address) ?? [];
  }

  hasBindings(address: string): boolean {
    return this.bindings.has(address);
  }

  /** Its connection has gone but a consumer of another connection remains: deleted when that one goes. */
  markOrphaned(queue: Queue): void {
    this.orphans.add(queue);
  }

  isOrphaned(queue: Queue): boolean {
    return this.orphans.has(queue);
  }
}
