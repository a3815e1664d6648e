import { invalidValue } from '../../lang/argument-errors';
import { AddressMatch, matchProblem, splitAddress } from '../security/address-match';

/** What happens when an address holds max-size-bytes: HornetQ's address-full-policy values. */
export type AddressFullPolicy = 'PAGE' | 'DROP' | 'BLOCK' | 'FAIL';

export interface AddressSettings {
  /** Bytes of messages the address may hold; -1 for no limit. */
  maxSizeBytes: number;
  addressFullPolicy: AddressFullPolicy;
  /**
   * BLOCK holds back only clients that wait for producer credits: a send to a BLOCK address that
   * already holds more than this many bytes is refused (ADDRESS_FULL), which stops a client that
   * sends without credits. -1 derives it: max-size-bytes plus REJECT_HEADROOM_BYTES (no limit when
   * max-size-bytes is -1). Artemis' max-size-bytes-reject-threshold.
   */
  maxSizeBytesRejectThreshold: number;
  /** Where a message goes after max-delivery-attempts failed deliveries; null drops it. */
  deadLetterAddress: string | null;
  /** Where expired messages go; null drops them. */
  expiryAddress: string | null;
  /** Ms added to the send time of messages sent without an expiration; -1 leaves them as they are. */
  expiryDelay: number;
  /** Ms a message waits before it is redelivered after a failed delivery; 0 redelivers at once. */
  redeliveryDelay: number;
  /** Each further failed delivery multiplies the delay by this. */
  redeliveryDelayMultiplier: number;
  /** Cap on the redelivery delay; null means HornetQ's default, ten times redeliveryDelay. */
  maxRedeliveryDelay: number | null;
  /** Failed deliveries before a message goes to the dead-letter address; -1 (or 0) never. */
  maxDeliveryAttempts: number;
  /** A message that no queue takes goes to the dead-letter address instead of being dropped. */
  sendToDlaOnNoRoute: boolean;
  /** Queues created on the address keep only the newest message per _HQ_LVQ_NAME. */
  lastValueQueue: boolean;
  /**
   * PAGE: bytes of a page file. A page fills in memory and is written out once it holds this
   * much (a message larger than a page makes a page of its own).
   */
  pageSizeBytes: number;
  /** PAGE: pages held in memory at the head of a paging address, read ahead of its queues. */
  pageMaxCacheSize: number;
}

/** HornetQ's defaults (AddressSettings.DEFAULT_*). */
export const DEFAULT_ADDRESS_SETTINGS: Readonly<AddressSettings> = Object.freeze({
  maxSizeBytes: -1,
  addressFullPolicy: 'PAGE',
  maxSizeBytesRejectThreshold: -1,
  deadLetterAddress: null,
  expiryAddress: null,
  expiryDelay: -1,
  redeliveryDelay: 0,
  redeliveryDelayMultiplier: 1.0,
  maxRedeliveryDelay: null,
  maxDeliveryAttempts: 10,
  sendToDlaOnNoRoute: false,
  lastValueQueue: false,
  pageSizeBytes: 10 * 1024 * 1024,
  pageMaxCacheSize: 5,
});

/** The largest page-size-bytes: a page is one Buffer in memory, and an int in HornetQ. */
export const MAX_PAGE_SIZE_BYTES = 2_147_483_647;

/**
 * How far past max-size-bytes a BLOCK address may go before sends are refused, when its reject
 * threshold is derived. An honest client sends only with credits, and none are granted while the
 * address is full, so it overshoots by at most the credits it held when the address filled: one
 * producer window per session sending there (64 KiB by default) or one message larger than that.
 * 64 MiB covers a thousand such sessions at once; a client ignoring credits stops here.
 */
export const REJECT_HEADROOM_BYTES = 64 * 1024 * 1024;

/** The settings that send a message to another address (a move: see message-copy.ts). */
export type MoveSetting = 'deadLetterAddress' | 'expiryAddress';

const FULL_POLICIES: readonly AddressFullPolicy[] = ['PAGE', 'DROP', 'BLOCK', 'FAIL'];

type Rule = [keyof AddressSettings, (value: unknown) => boolean, string];

const isInteger = (v: unknown): v is number => Number.isSafeInteger(v);
const isAddress = (v: unknown): boolean => v === null || (typeof v === 'string' && v.length > 0);

/** What each setting accepts; a setting left out of a match is not checked (it inherits). */
const RULES: Rule[] = [
  ['maxSizeBytes', (v) => isInteger(v) && v >= -1, '-1 or an integer >= 0'],
  [
    'maxSizeBytesRejectThreshold',
    (v) => isInteger(v) && v >= -1,
    '-1 (derived from max-size-bytes) or an integer >= 0',
  ],
  ['addressFullPolicy', (v) => FULL_POLICIES.includes(v as AddressFullPolicy), FULL_POLICIES.join(', ')],
  ['deadLetterAddress', isAddress, 'null or a non-empty address'],
  ['expiryAddress', isAddress, 'null or a non-empty address'],
  ['expiryDelay', (v) => isInteger(v) && v >= -1, '-1 or an integer >= 0 (ms)'],
  ['redeliveryDelay', (v) => isInteger(v) && v >= 0, 'an integer >= 0 (ms)'],
  [
    'redeliveryDelayMultiplier',
    (v) => typeof v === 'number' && Number.isFinite(v) && v > 0,
    'a finite number > 0',
  ],
  ['maxRedeliveryDelay', (v) => v === null || (isInteger(v) && v >= 0), 'null or an integer >= 0 (ms)'],
  ['maxDeliveryAttempts', (v) => isInteger(v) && v >= -1, '-1 (no limit) or an integer >= 0'],
  ['sendToDlaOnNoRoute', (v) => typeof v === 'boolean', 'true or false'],
  ['lastValueQueue', (v) => typeof v === 'boolean', 'true or false'],
  [
    'pageSizeBytes',
    (v) => isInteger(v) && v >= 1 && v <= MAX_PAGE_SIZE_BYTES,
    `an integer from 1 to ${MAX_PAGE_SIZE_BYTES} (bytes)`,
  ],
  ['pageMaxCacheSize', (v) => isInteger(v) && v >= 1, 'an integer >= 1 (pages)'],
];

/** Throws RangeError naming a bad match, or each bad setting of a match, its value and what is allowed. */
export function validateAddressSettings(match: string, settings: Partial<AddressSettings>): void {
  const problems: string[] = [];
  const problem = matchProblem(match);
  if (problem !== null) problems.push(`the match is invalid: ${problem}`);
  for (const [name, valid, allowed] of RULES) {
    if (!(name in settings)) continue;
    const value: unknown = settings[name];
    if (value !== undefined && !valid(value)) {
      problems.push(`${name} must be ${allowed} (actual value: ${JSON.stringify(value)})`);
    }
  }
  if (problems.length > 0)
    throw invalidValue(`invalid address settings for match '${match}': ${problems.join('; ')}`);
}

/**
 * Address settings by match, HornetQ style (see AddressMatch): words separated by '.', '*' matches
 * one word and '#' any number of words. Every match that applies is merged, the more specific
 * (AddressMatch.compareSpecificity, as for security settings) overriding the less.
 */
export class AddressSettingsRepository {
  /** Least specific first, so that merging in order lets the more specific override. */
  private readonly entries: Array<{ match: AddressMatch; settings: Partial<AddressSettings> }> = [];
  private readonly cache = new Map<string, AddressSettings>();
  private readonly longest = new Map<MoveSetting, string | null>();

  /** Throws RangeError naming the match when it or one of its settings is invalid. */
  add(match: string, settings: Partial<AddressSettings>): void {
    validateAddressSettings(match, settings);
    this.entries.push({ match: new AddressMatch(match), settings: definedOnly(settings) });
    this.entries.sort((a, b) => AddressMatch.compareSpecificity(b.match, a.match));
    this.cache.clear();
    this.longest.clear();
  }

  /**
   * The longest address (in UTF-8 bytes) that any match names as its dead-letter or expiry
   * address, or null when none names one: every move of a message goes to one of these.
   */
  longestAddress(setting: MoveSetting): string | null {
    let longest = this.longest.get(setting);
    if (longest === undefined) {
      longest = null;
      for (const { settings } of this.entries) {
        const address = settings[setting];
        if (typeof address === 'string' && (longest === null || utf8Bytes(address) > utf8Bytes(longest)))
          longest = address;
      }
      this.longest.set(setting, longest);
    }
    return longest;
  }

  getMatch(address: string): AddressSettings {
    let settings = this.cache.get(address);
    if (settings === undefined) {
      const words = splitAddress(address);
      settings = { ...DEFAULT_ADDRESS_SETTINGS };
      for (const entry of this.entries) {
        if (entry.match.matchesWords(words)) settings = { ...settings, ...entry.settings };
      }
      this.cache.set(address, settings);
    }
    return settings;
  }
}

function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** A setting given as undefined (a loader's missing element) inherits instead of erasing. */
function definedOnly(settings: Partial<AddressSettings>): Partial<AddressSettings> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) copy[name] = value;
  return copy as Partial<AddressSettings>;
}
