/**
 * Replies that must leave in the order their requests came, though some are ready later than
 * others (channel 1: a REATTACH_SESSION waits for its session's answers to be synced, a
 * CREATESESSION right behind it does not). A client matches them to its requests by order alone,
 * as HornetQ's does, so one that overtook another would answer the wrong request.
 *
 * Bounded by the requests a connection may have outstanding on the channel: its owner refuses more
 * (ServerConnection, MAX_UNANSWERED_SESSION_REQUESTS); a client makes them one at a time.
 */
export class OrderedReplies<Reply> {
  private readonly slots: Array<{ reply: Reply | null }> = [];

  constructor(private readonly write: (reply: Reply) => void) {}

  /** Requests whose reply has not gone out yet. */
  get pending(): number {
    return this.slots.length;
  }

  /** Takes the next place in line; the returned function fills it (once) when the reply is ready. */
  reserve(): (reply: Reply) => void {
    const slot: { reply: Reply | null } = { reply: null };
    this.slots.push(slot);
    let filled = false;
    return (reply) => {
      if (filled) return;
      filled = true;
      slot.reply = reply;
      this.flush();
    };
  }

  private flush(): void {
    while (this.slots.length > 0) {
      const head = this.slots[0] as { reply: Reply | null };
      if (head.reply === null) return;
      this.slots.shift();
      this.write(head.reply);
    }
  }
}
