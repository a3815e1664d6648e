/**
 * The kinds of damage a start refuses, by the name an operator accepts them with
 * (`hornetq server --accept-damage <kinds>`, acceptDamage in the configuration). Accepting a kind
 * loads past it and loses what it held, logged with counts; nothing is accepted unless named.
 */
export const DAMAGE_KINDS = {
  /** A journal record before the tail fails its checks. Accepted: skipped (skip-corrupt-records). */
  'corrupt-record': 'a journal record before the tail does not read back',
  /** The last record(s) do not read back although the journal was stopped cleanly: not a crash's torn tail. */
  'damaged-tail': 'the end of a journal does not read back although the broker was stopped cleanly',
  /** A journal file the journal last listed as holding records, or one between two files, is missing. */
  'missing-journal-file':
    'a journal file is missing (deleted, or not restored) without having been reclaimed',
  /** A confirmed large message's file is missing, shorter or longer than its header says, or fails its checksum. */
  'large-message-file': "a confirmed large message's file is missing, short or does not match its checksum",
  /** The message journal has no file while the bindings journal holds queues. */
  'missing-message-journal':
    'the message journal holds no file (its directory changed, unmounted or not restored) while the bindings journal holds queues',
  /** The message journal references queues the bindings journal does not hold. */
  'unknown-queue': 'the message journal references queues the bindings journal does not hold',
} as const;

export type DamageKind = keyof typeof DAMAGE_KINDS;

export const DAMAGE_KIND_NAMES = Object.keys(DAMAGE_KINDS) as DamageKind[];

export function isDamageKind(value: unknown): value is DamageKind {
  return typeof value === 'string' && Object.hasOwn(DAMAGE_KINDS, value);
}

/** One problem found at load: where, what, and how many messages it costs when known. */
export interface DamageFinding {
  kind: DamageKind;
  /** The file or directory it is in. */
  file: string;
  /** Where in the file, when the damage has a place in it. */
  offset: number | null;
  /** What is wrong, in a sentence. */
  detail: string;
  /** Messages lost if it is accepted, when the load can tell (null: unknown). */
  messages: number | null;
}

/** `file:offset` (or the file alone), kind and detail: one line of a report or an error. */
export function describeFinding(finding: DamageFinding): string {
  const where = finding.offset === null ? finding.file : `${finding.file} at offset ${finding.offset}`;
  // A lost journal file or record takes what it held, which nothing left on disk can count.
  const count =
    finding.messages === null ? ' (messages lost: not known)' : ` (${finding.messages} message(s))`;
  return `${finding.kind}: ${where}: ${finding.detail}${count}`;
}
