/**
 * Which consumer of a queue owns each message group: the first consumer to take a message of the
 * group keeps every later one, until it leaves the queue and the group is free to go elsewhere.
 * Generic in the consumer type so that the queue can keep it free of consumer details.
 */
export class MessageGroups<C> {
  private readonly owners = new Map<string, C>();
  /** The groups each consumer owns, so that a leaving consumer frees them without a full scan. */
  private readonly owned = new Map<C, Set<string>>();

  get size(): number {
    return this.owners.size;
  }

  ownerOf(group: string): C | undefined {
    return this.owners.get(group);
  }

  bind(group: string, consumer: C): void {
    this.owners.set(group, consumer);
    let groups = this.owned.get(consumer);
    if (groups === undefined) {
      groups = new Set();
      this.owned.set(consumer, groups);
    }
    groups.add(group);
  }

  /** Frees the groups of a consumer that left; their next messages pick a new owner. */
  unbindConsumer(consumer: C): void {
    const groups = this.owned.get(consumer);
    if (groups === undefined) return;
    for (const group of groups) this.owners.delete(group);
    this.owned.delete(consumer);
  }

  clear(): void {
    this.owners.clear();
    this.owned.clear();
  }
}
