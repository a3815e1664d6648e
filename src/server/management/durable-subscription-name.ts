/**
 * A durable subscription's queue name split back into its client id and subscription name, as
 * HornetQ's HornetQDestination.decomposeQueueNameForDurableSubscription does: `client.sub`, with
 * `\` escaping a `.` or `\` inside either part. (The JMS layer names the queue this way; the
 * broker, below it, only reads the name.) Null for a name that is not two such parts.
 */
export function splitSubscriptionQueueName(queueName: string): { clientId: string; name: string } | null {
  const parts = ['', ''];
  let part = 0;
  for (let i = 0; i < queueName.length; i++) {
    let ch = queueName[i] as string;
    if (ch === '.') {
      if (++part >= parts.length) return null;
      continue;
    }
    if (ch === '\\') {
      if (++i >= queueName.length) return null;
      ch = queueName[i] as string;
    }
    parts[part] += ch;
  }
  return part === 1 ? { clientId: parts[0] as string, name: parts[1] as string } : null;
}

/** The queue name of durable subscription `name` of client `clientId` (HornetQ's escaping). */
export function subscriptionQueueNameOf(clientId: string, name: string): string {
  return `${escapePart(clientId)}.${escapePart(name)}`;
}

function escapePart(part: string): string {
  return part.replace(/[\\.]/g, (c) => `\\${c}`);
}
