/** Node fires a timer longer than this after 1 ms, so no time setting may exceed it. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Java's Integer.MAX_VALUE: HornetQ's int settings, and the largest frame the protocol can announce. */
export const MAX_JAVA_INT = 2_147_483_647;
