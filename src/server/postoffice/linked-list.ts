/** A node of LinkedList; holders keep it to remove their entry in O(1). */
export interface ListNode<T> {
  value: T;
  prev: ListNode<T> | null;
  next: ListNode<T> | null;
  /** False once removed, so a stale node is never unlinked twice. */
  linked: boolean;
}

/**
 * A doubly linked list: O(1) add at either end and removal of any node, which is what a queue
 * needs for FIFO delivery, returning cancelled messages to the head, and skipping messages that
 * match no consumer.
 */
export class LinkedList<T> {
  private head: ListNode<T> | null = null;
  private tail: ListNode<T> | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get first(): ListNode<T> | null {
    return this.head;
  }

  addTail(value: T): ListNode<T> {
    const node: ListNode<T> = { value, prev: this.tail, next: null, linked: true };
    if (this.tail === null) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.count++;
    return node;
  }

  addHead(value: T): ListNode<T> {
    const node: ListNode<T> = { value, prev: null, next: this.head, linked: true };
    if (this.head === null) this.tail = node;
    else this.head.prev = node;
    this.head = node;
    this.count++;
    return node;
  }

  remove(node: ListNode<T>): void {
    if (!node.linked) return;
    node.linked = false;
    if (node.prev === null) this.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) this.tail = node.prev;
    else node.next.prev = node.prev;
    this.count--;
  }

  *values(): IterableIterator<T> {
    for (let node = this.head; node !== null; node = node.next) yield node.value;
  }
}
