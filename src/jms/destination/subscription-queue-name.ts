/**
 * The core queue that holds a named topic subscription, named as HornetQ 2.4's
 * HornetQDestination.createQueueNameForDurableSubscription names it, so that a Java client and
 * ours meet on the same queue: a durable one `[clientID.]name`, a shared non-durable one
 * `nonDurable.[clientID.]name`, each part escaped. A durable subscription is durable whether
 * shared or not (JMS 2.0 lets the two kinds of one name be the same subscription, as HornetQ does).
 */
export function subscriptionQueueName(durable: boolean, clientID: string | null, name: string): string {
  const owned = clientID === null ? escapeName(name) : `${escapeName(clientID)}.${escapeName(name)}`;
  return durable ? owned : `nonDurable.${owned}`;
}

/** HornetQ's escaping: '\' and '.' get a '\' before them, so that '.' only separates the parts. */
function escapeName(name: string): string {
  return name.replace(/[\\.]/g, (c) => `\\${c}`);
}
