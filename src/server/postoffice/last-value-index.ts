import type { ListNode } from './linked-list';
import { lastValueKey } from './message-headers';
import type { MessageReference } from './message-reference';

/**
 * For a last-value queue: the queued (not delivering) node that holds the newest message of each
 * _HQ_LVQ_NAME value, so that a newer message replaces it in O(1).
 */
export class LastValueIndex {
  private readonly nodes = new Map<string, ListNode<MessageReference>>();

  /** The queued node with this key, if any. */
  get(key: string): ListNode<MessageReference> | undefined {
    const node = this.nodes.get(key);
    return node?.linked === true ? node : undefined;
  }

  set(key: string, node: ListNode<MessageReference>): void {
    this.nodes.set(key, node);
  }

  /** A node left the queue's lists (delivered, expired, deleted). */
  forget(node: ListNode<MessageReference>): void {
    const key = lastValueKey(node.value.message);
    if (key !== null && this.nodes.get(key) === node) this.nodes.delete(key);
  }

  clear(): void {
    this.nodes.clear();
  }
}
