import { invalidValue } from '../../lang/argument-errors';

/** The word that matches any number of words, none included. */
export const ANY_WORDS = '#';

/** The word that matches exactly one word. */
export const ONE_WORD = '*';

/** The longest match, in characters (the broker's default maxNameLength). */
export const MAX_MATCH_LENGTH = 4_096;

/**
 * The most words a match with '#' may have. Only such a match can cost more than one pass over
 * the address: up to (its words) x (address words) word comparisons, e.g. '#.a.a.(...).a.b'
 * against 'a.a.(...).a'. Matches come from configuration, so this only stops a mistake from
 * making every lookup slow: 64 words against the longest address (1 MiB) stays under a second.
 */
export const MAX_WORDS_WITH_ANY = 64;

/** What a word of a match is, as its rank in compareSpecificity (higher is more specific). */
type Kind = 0 | 1 | 2 | 3;
const ANY: Kind = 0;
/** Past the last word of a match: above '#', below '*' (see compareSpecificity). */
const END: Kind = 1;
const ONE: Kind = 2;
const LITERAL: Kind = 3;

/** An address cut into its words; an address always has at least one (possibly empty) word. */
export function splitAddress(address: string): string[] {
  return address.split('.');
}

/**
 * What is wrong with a match, or null when nothing is: empty, too long, an empty word, too many
 * words with '#'. For configuration readers, which report it where the match is written.
 */
export function matchProblem(text: string): string | null {
  if (text.length === 0) return 'a match needs at least one word';
  if (text.length > MAX_MATCH_LENGTH)
    return `it has ${text.length} characters; at most ${MAX_MATCH_LENGTH} are allowed`;
  const words = splitAddress(text);
  const empty = words.indexOf('');
  if (empty >= 0)
    return `word ${empty + 1} is empty (words are separated by a single '.'; '${ANY_WORDS}' matches any number of words, '${ONE_WORD}' one word)`;
  if (words.length > MAX_WORDS_WITH_ANY && words.includes(ANY_WORDS))
    return `it has ${words.length} words and a '${ANY_WORDS}'; a match with '${ANY_WORDS}' may have at most ${MAX_WORDS_WITH_ANY} words`;
  return null;
}

function shortened(text: string): string {
  return text.length > 80 ? `${text.slice(0, 40)}...` : text;
}

/**
 * A HornetQ match (security-settings and address-settings): words separated by '.', where the
 * word '#' stands for zero or more words and the word '*' for exactly one; every other word, and
 * every character of it, is literal ('a+b', '(x)', 'eu*' are plain words). Matching compares
 * words, never through a regular expression: one pass over the address for a match without '#',
 * at most (match words) x (address words) steps for one with '#' (see MAX_WORDS_WITH_ANY).
 */
export class AddressMatch {
  readonly text: string;
  /** Whether the match has no wildcard: it matches exactly one address, its own text. */
  readonly isLiteral: boolean;
  private readonly words: readonly string[];
  private readonly kinds: readonly Kind[];

  /** Throws RangeError naming the match and what is wrong with it (see matchProblem). */
  constructor(text: string) {
    const problem = matchProblem(text);
    if (problem !== null) throw invalidValue(`invalid match '${shortened(text)}': ${problem}`);
    const words = splitAddress(text);
    this.text = text;
    this.words = words;
    this.kinds = words.map((word) => (word === ANY_WORDS ? ANY : word === ONE_WORD ? ONE : LITERAL));
    this.isLiteral = this.kinds.every((kind) => kind === LITERAL);
  }

  matches(address: string): boolean {
    return this.matchesWords(splitAddress(address));
  }

  /**
   * Whether the match covers an address already split by splitAddress (so that a lookup over
   * many matches splits the address once). Greedy, with a single resume point: on a mismatch,
   * the latest '#' takes one more word and matching resumes after it. Resuming at an earlier '#'
   * is never needed, since whatever it could take the latest one can take as well; so there is
   * no recursion and no exponential case however many '#' a match has.
   */
  matchesWords(address: readonly string[]): boolean {
    const { kinds, words } = this;
    let m = 0;
    let a = 0;
    let resumeMatch = -1;
    let resumeAddress = 0;
    while (a < address.length) {
      const kind = kinds[m];
      if (kind === ANY) {
        resumeMatch = ++m;
        resumeAddress = a;
      } else if (kind === ONE || (kind === LITERAL && words[m] === address[a])) {
        m++;
        a++;
      } else if (resumeMatch >= 0) {
        m = resumeMatch;
        a = ++resumeAddress;
      } else {
        return false;
      }
    }
    while (kinds[m] === ANY) m++;
    return m === kinds.length;
  }

  /**
   * Orders matches from the most specific to the least (negative when `a` is more specific), for
   * sort(). HornetQ's first two rules, so that a configuration written for HornetQ resolves the
   * same: a match without wildcards first, then a match without '#' before one with '#'. Then,
   * where HornetQ's comparator is not a consistent order (two matches with '*', or two with '#',
   * which it ranks by string length), word by word from the left, a literal word before '*', '*'
   * before '#'; where one match has run out of words, it comes after the other if the other goes
   * on with a literal or '*' (`a.#.b` before `a.#`) and before it if the other goes on with '#'.
   * Matches still equal are ordered by their text, so that the order is total and never depends
   * on the order of the configuration.
   */
  static compareSpecificity(this: void, a: AddressMatch, b: AddressMatch): number {
    if (a.isLiteral !== b.isLiteral) return a.isLiteral ? -1 : 1;
    const aAny = a.kinds.includes(ANY);
    if (aAny !== b.kinds.includes(ANY)) return aAny ? 1 : -1;
    const words = Math.max(a.kinds.length, b.kinds.length);
    for (let index = 0; index < words; index++) {
      const difference = (b.kinds[index] ?? END) - (a.kinds[index] ?? END);
      if (difference !== 0) return difference;
    }
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
}
