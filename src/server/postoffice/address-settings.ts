import { HornetQException } from '../../core/protocol';

/** What happens when an address holds max-size-bytes: HornetQ's address-full-policy values. */
export type AddressFullPolicy = 'PAGE' | 'DROP' | 'BLOCK' | 'FAIL';

export interface AddressSettings {
  /** Bytes of messages the address may hold; -1 for no limit. */
  maxSizeBytes: number;
  addressFullPolicy: AddressFullPolicy;
}

/** HornetQ's defaults (AddressSettings.DEFAULT_*). */
export const DEFAULT_ADDRESS_SETTINGS: AddressSettings = {
  maxSizeBytes: -1,
  addressFullPolicy: 'PAGE',
};

/**
 * Address settings by match, HornetQ style: words separated by '.', '*' matches one word and '#'
 * any number of words. Every match that applies is merged, the more specific overriding the less.
 */
export class AddressSettingsRepository {
  private readonly entries: Array<{ match: string; words: string[]; settings: Partial<AddressSettings> }> =
    [];
  private readonly cache = new Map<string, AddressSettings>();

  add(match: string, settings: Partial<AddressSettings>): void {
    if (settings.maxSizeBytes !== undefined && settings.maxSizeBytes < -1) {
      throw new HornetQException('ILLEGAL_STATE', `max-size-bytes for '${match}' must be -1 or >= 0`);
    }
    this.entries.push({ match, words: match.split('.'), settings });
    this.entries.sort((a, b) => specificity(a.words) - specificity(b.words));
    this.cache.clear();
  }

  getMatch(address: string): AddressSettings {
    let settings = this.cache.get(address);
    if (settings === undefined) {
      const words = address.split('.');
      settings = { ...DEFAULT_ADDRESS_SETTINGS };
      for (const entry of this.entries) {
        if (matches(entry.words, words)) settings = { ...settings, ...entry.settings };
      }
      this.cache.set(address, settings);
    }
    return settings;
  }
}

/** Higher for more specific matches: literal words count most, '*' a little, '#' nothing. */
function specificity(words: string[]): number {
  let score = 0;
  for (const word of words) score += word === '#' ? 0 : word === '*' ? 1 : 100;
  return score;
}

/**
 * Word-wise wildcard match, no regular expressions. Each ('#' position, word position) is tried at
 * most once: plain backtracking is exponential in the number of '#' (e.g. '#.#.#.#.x' against a
 * long address that does not end in 'x').
 */
export function matches(pattern: readonly string[], words: readonly string[]): boolean {
  const failed = new Set<number>();
  const from = (p: number, w: number): boolean => {
    while (p < pattern.length) {
      const word = pattern[p];
      if (word === '#') {
        if (p === pattern.length - 1) return true;
        const state = p * (words.length + 1) + w;
        if (failed.has(state)) return false;
        for (let skip = w; skip <= words.length; skip++) if (from(p + 1, skip)) return true;
        failed.add(state);
        return false;
      }
      if (w >= words.length || (word !== '*' && word !== words[w])) return false;
      p++;
      w++;
    }
    return w === words.length;
  };
  return from(0, 0);
}
