/** Stands for `_` in a compiled segment: any one character. */
const ANY = -1;

/**
 * The characters between two `%` wildcards, as code points with ANY for `_`. A segment without `_`
 * is searched with `indexOf`; one with `_` by a bit-parallel (shift-and) scan, one pass over the
 * text whatever the pattern.
 */
class Segment {
  readonly length: number;
  private readonly literal: string | null;
  private readonly masks = new Map<number, Uint32Array>();
  private readonly anyMask: Uint32Array;
  private readonly state: Uint32Array;
  private readonly lastWord: number;
  private readonly lastBit: number;

  constructor(readonly codePoints: readonly number[]) {
    this.length = codePoints.length;
    this.literal = codePoints.includes(ANY) ? null : String.fromCodePoint(...codePoints);
    const words = Math.max(1, Math.ceil(codePoints.length / 32));
    this.anyMask = new Uint32Array(words);
    this.state = new Uint32Array(words);
    this.lastWord = (codePoints.length - 1) >>> 5;
    this.lastBit = 1 << ((codePoints.length - 1) & 31);
    if (this.literal !== null) return;
    codePoints.forEach((cp, i) => {
      if (cp === ANY) setBit(this.anyMask, i);
    });
    codePoints.forEach((cp, i) => {
      if (cp === ANY) return;
      let mask = this.masks.get(cp);
      if (mask === undefined) {
        mask = Uint32Array.from(this.anyMask);
        this.masks.set(cp, mask);
      }
      setBit(mask, i);
    });
  }

  /** Whether the segment matches `text` starting exactly at `from`; the end offset, or -1. */
  matchForward(text: string, from: number): number {
    let position = from;
    for (const expected of this.codePoints) {
      const cp = text.codePointAt(position);
      if (cp === undefined || (expected !== ANY && expected !== cp)) return -1;
      position += cp > 0xffff ? 2 : 1;
    }
    return position;
  }

  /** Whether the segment matches `text` ending exactly at `end`; the start offset, or -1. */
  matchBackward(text: string, end: number): number {
    let position = end;
    for (let i = this.codePoints.length - 1; i >= 0; i--) {
      if (position <= 0) return -1;
      let cp = text.charCodeAt(position - 1);
      let width = 1;
      if (cp >= 0xdc00 && cp <= 0xdfff && position >= 2) {
        const high = text.charCodeAt(position - 2);
        if (high >= 0xd800 && high <= 0xdbff) {
          cp = (high - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      const expected = this.codePoints[i];
      if (expected !== ANY && expected !== cp) return -1;
      position -= width;
    }
    return position;
  }

  /** The end offset of the leftmost occurrence lying wholly within [from, limit), or -1. */
  find(text: string, from: number, limit: number): number {
    if (this.literal !== null) {
      const at = text.indexOf(this.literal, from);
      return at < 0 || at + this.literal.length > limit ? -1 : at + this.literal.length;
    }
    const state = this.state;
    state.fill(0);
    for (let position = from; position < limit;) {
      const cp = text.codePointAt(position) as number;
      position += cp > 0xffff ? 2 : 1;
      const mask = this.masks.get(cp) ?? this.anyMask;
      // state bit i: the last i+1 characters match the segment's first i+1 elements.
      let carry = 1;
      for (let w = 0; w < state.length; w++) {
        const old = state[w] as number;
        state[w] = ((old << 1) | carry) & (mask[w] as number);
        carry = old >>> 31;
      }
      if (((state[this.lastWord] as number) & this.lastBit) !== 0) return position;
    }
    return -1;
  }
}

function setBit(words: Uint32Array, bit: number): void {
  words[bit >>> 5] = (words[bit >>> 5] as number) | (1 << (bit & 31));
}

/**
 * A compiled LIKE pattern. `_` matches exactly one character (a Unicode code point, newlines
 * included), `%` any run of characters; everything else is literal, so no regular expression is
 * involved. A pattern is split on `%` into a head anchored at the start, a tail anchored at the
 * end and middle segments placed leftmost-first between them; leftmost placement is optimal for
 * `%`, so matching never backtracks and takes time linear in the text (times the segment length
 * / 32 for segments containing `_`).
 *
 * The escape character makes a following `%`, `_` or escape character literal. Followed by
 * anything else (or nothing) it keeps its ordinary meaning, as in ActiveMQ Artemis: the JMS
 * specification leaves that case undefined.
 */
export class LikePattern {
  private readonly head: Segment;
  /** Null when the pattern has no `%`: the head must then match the whole text. */
  private readonly tail: Segment | null;
  private readonly middles: readonly Segment[];

  constructor(pattern: string, escape: string | null) {
    const escapeCp = escape === null ? null : escape.codePointAt(0);
    const segments: number[][] = [[]];
    const chars = Array.from(pattern, (c) => c.codePointAt(0) as number);
    for (let i = 0; i < chars.length; i++) {
      const cp = chars[i] as number;
      const current = segments[segments.length - 1] as number[];
      const next = chars[i + 1];
      if (cp === escapeCp && (next === PERCENT || next === UNDERSCORE || next === escapeCp)) {
        current.push(next);
        i++;
      } else if (cp === PERCENT) {
        segments.push([]);
      } else {
        current.push(cp === UNDERSCORE ? ANY : cp);
      }
    }
    this.head = new Segment(segments[0] as number[]);
    this.tail = segments.length > 1 ? new Segment(segments[segments.length - 1] as number[]) : null;
    this.middles = segments
      .slice(1, -1)
      .filter((s) => s.length > 0)
      .map((s) => new Segment(s));
  }

  matches(text: string): boolean {
    const afterHead = this.head.matchForward(text, 0);
    if (afterHead < 0) return false;
    if (this.tail === null) return afterHead === text.length;
    const beforeTail = this.tail.matchBackward(text, text.length);
    if (beforeTail < afterHead) return false;
    let position = afterHead;
    for (const segment of this.middles) {
      position = segment.find(text, position, beforeTail);
      if (position < 0) return false;
    }
    return true;
  }
}

const PERCENT = 0x25;
const UNDERSCORE = 0x5f;
