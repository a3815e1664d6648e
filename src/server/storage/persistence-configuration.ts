import { invalidValue } from '../../lang/argument-errors';
import { DAMAGE_KIND_NAMES, isDamageKind, type DamageKind } from './damage/damage-kind';

/**
 * hornetq-configuration.xml's persistence elements (research note §1.9), as the broker's journal
 * storage uses them. Directories are resolved against the working directory, as HornetQ's are.
 */
export interface PersistenceConfiguration {
  /** journal-directory: the message journal (hornetq-data-N.hq). */
  journalDirectory: string;
  /** bindings-directory: the bindings journal (hornetq-bindings-N.bindings). */
  bindingsDirectory: string;
  /** large-messages-directory: one `<message id>.msg` file per large message. */
  largeMessagesDirectory: string;
  /** paging-directory: page files of addresses past max-size-bytes under address-full-policy PAGE. */
  pagingDirectory: string;
  /** create-journal-dir: create journal-directory (and large-messages-, paging-directory) when missing. */
  createJournalDir: boolean;
  /** create-bindings-dir: create bindings-directory when missing. */
  createBindingsDir: boolean;
  /** journal-file-size: bytes of each message journal file. */
  journalFileSize: number;
  /** journal-min-files: files the message journal keeps pre-created. */
  journalMinFiles: number;
  /** journal-compact-min-files: compaction waits for this many data files; 0 turns it off. */
  journalCompactMinFiles: number;
  /** journal-compact-percentage: compaction runs when live data is below this share of the files. */
  journalCompactPercentage: number;
  /** journal-sync-transactional: a commit is on disk before the broker answers it. */
  journalSyncTransactional: boolean;
  /** journal-sync-non-transactional: a durable send or acknowledgement outside a transaction too. */
  journalSyncNonTransactional: boolean;
  /** journal-buffer-timeout (ns): the longest a requested sync waits for more records to share it. */
  journalBufferTimeout: number;
  /** journal-buffer-size (bytes): the write buffer; a larger message goes to a large-message file. */
  journalBufferSize: number;
  /**
   * Ours (skip-corrupt-records): load past a corrupt record found before the journal's tail,
   * logging where it was, instead of refusing to start.
   */
  skipCorruptRecords: boolean;
  /**
   * Ours (`hornetq server --accept-damage`): damage kinds the start accepts, losing what they hold
   * (logged with counts); any other damage found stops the start. Empty by default: a start
   * accepts nothing it was not told to.
   */
  acceptDamage: readonly DamageKind[];
}

/** HornetQ 2.4's defaults; journal-buffer-timeout is NIO's (our journal writes through node:fs, as NIO does). */
export const DEFAULT_PERSISTENCE_CONFIGURATION: Readonly<PersistenceConfiguration> = Object.freeze({
  journalDirectory: 'data/journal',
  bindingsDirectory: 'data/bindings',
  largeMessagesDirectory: 'data/largemessages',
  pagingDirectory: 'data/paging',
  createJournalDir: true,
  createBindingsDir: true,
  journalFileSize: 10_485_760,
  journalMinFiles: 2,
  journalCompactMinFiles: 10,
  journalCompactPercentage: 30,
  journalSyncTransactional: true,
  journalSyncNonTransactional: true,
  journalBufferTimeout: 3_333_333,
  journalBufferSize: 501_760,
  skipCorruptRecords: false,
  acceptDamage: [],
});

/** Each setting's element in hornetq-configuration.xml, for error messages. */
export const PERSISTENCE_ELEMENTS: Readonly<Record<keyof PersistenceConfiguration, string>> = Object.freeze({
  journalDirectory: 'journal-directory',
  bindingsDirectory: 'bindings-directory',
  largeMessagesDirectory: 'large-messages-directory',
  pagingDirectory: 'paging-directory',
  createJournalDir: 'create-journal-dir',
  createBindingsDir: 'create-bindings-dir',
  journalFileSize: 'journal-file-size',
  journalMinFiles: 'journal-min-files',
  journalCompactMinFiles: 'journal-compact-min-files',
  journalCompactPercentage: 'journal-compact-percentage',
  journalSyncTransactional: 'journal-sync-transactional',
  journalSyncNonTransactional: 'journal-sync-non-transactional',
  journalBufferTimeout: 'journal-buffer-timeout',
  journalBufferSize: 'journal-buffer-size',
  skipCorruptRecords: 'skip-corrupt-records',
  acceptDamage: 'accept-damage',
});

/** Sizes and counts are Java ints in HornetQ's configuration. */
const MAX_INT = 2_147_483_647;
/** HornetQ's JournalImpl refuses smaller files (MIN_FILE_SIZE). */
const MIN_FILE_SIZE = 1024;
/** Below this a buffer holds too few records for group commit to share a sync among them. */
const MIN_BUFFER_SIZE = 4096;
/** Files created ahead of need: more would only take disk space (and the engine stops there). */
const MAX_JOURNAL_MIN_FILES = 10_000;
/** A journal of more files than this is not compacted anyway. */
const MAX_COMPACT_MIN_FILES = 1_000_000;
/** One second: a longer wait would hold every durable answer that long. */
const MAX_BUFFER_TIMEOUT_NS = 1_000_000_000;

/** [setting, lowest, highest, unit]. */
type NumberRule = [keyof PersistenceConfiguration, number, number, string];

const NUMBER_RULES: NumberRule[] = [
  ['journalFileSize', MIN_FILE_SIZE, MAX_INT, ' bytes'],
  // HornetQ: "minFiles cannot be less than 2".
  ['journalMinFiles', 2, MAX_JOURNAL_MIN_FILES, ''],
  ['journalCompactMinFiles', 0, MAX_COMPACT_MIN_FILES, ''],
  ['journalCompactPercentage', 0, 100, ''],
  ['journalBufferTimeout', 0, MAX_BUFFER_TIMEOUT_NS, ' ns'],
  // A buffer larger than a file is used up to the file's size (HornetQ's TimedBuffer does the same).
  ['journalBufferSize', MIN_BUFFER_SIZE, MAX_INT, ' bytes'],
];

const DIRECTORY_SETTINGS: Array<keyof PersistenceConfiguration> = [
  'journalDirectory',
  'bindingsDirectory',
  'largeMessagesDirectory',
  'pagingDirectory',
];

const FLAG_SETTINGS: Array<keyof PersistenceConfiguration> = [
  'createJournalDir',
  'createBindingsDir',
  'journalSyncTransactional',
  'journalSyncNonTransactional',
  'skipCorruptRecords',
];

function settingName(key: keyof PersistenceConfiguration): string {
  return `${key} (${PERSISTENCE_ELEMENTS[key]})`;
}

/** Every problem of a persistence configuration, each naming the setting, its value and what is allowed. */
export function persistenceConfigurationProblems(config: PersistenceConfiguration): string[] {
  const problems: string[] = [];
  for (const key of DIRECTORY_SETTINGS) {
    const value = config[key];
    if (typeof value !== 'string' || value.trim() === '' || value.includes('\0'))
      problems.push(`${settingName(key)} must be a directory path (actual value: ${JSON.stringify(value)})`);
  }
  for (const key of FLAG_SETTINGS) {
    const value = config[key];
    if (typeof value !== 'boolean')
      problems.push(`${settingName(key)} must be true or false (actual value: ${String(value)})`);
  }
  const accepted: unknown = config.acceptDamage;
  if (!Array.isArray(accepted) || !accepted.every(isDamageKind))
    problems.push(
      `${settingName('acceptDamage')} must list damage kinds among ${DAMAGE_KIND_NAMES.join(', ')} (actual value: ${JSON.stringify(accepted)})`,
    );
  for (const [key, min, max, unit] of NUMBER_RULES) {
    const value = config[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
      problems.push(
        `${settingName(key)} must be an integer in ${min}..${max}${unit} (actual value: ${String(value)})`,
      );
  }
  return problems;
}

/** Merges settings over the defaults and checks them; throws a RangeError listing every problem. */
export function resolvePersistenceConfiguration(
  settings: Partial<PersistenceConfiguration>,
): PersistenceConfiguration {
  const resolved: PersistenceConfiguration = { ...DEFAULT_PERSISTENCE_CONFIGURATION, ...settings };
  const problems = persistenceConfigurationProblems(resolved);
  if (problems.length > 0) throw invalidValue(`invalid persistence configuration: ${problems.join('; ')}`);
  return resolved;
}
