/**
 * The most an HTTP head (start line and headers) may take on either end of an upgrade: an upgrade
 * request or answer is a few hundred bytes, and Netty's HTTP decoder (HornetQ's and Artemis' ends)
 * refuses more than 8 KiB of headers. A peer cannot make us buffer more before its head ends.
 */
export const MAX_HTTP_HEAD_BYTES = 8 * 1024;

/** A parsed HTTP head. */
export interface HttpHead {
  /** 'GET / HTTP/1.1' or 'HTTP/1.1 101 Switching Protocols', as sent. */
  startLine: string;
  /** Names lower-cased; a repeated header's values joined with ', ' (RFC 9110 §5.3). */
  headers: Map<string, string>;
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** RFC 9110 §5.6.2 token characters: what a header name may contain. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Gathers what a peer sends until the blank line that ends an HTTP head, and never more than
 * `maxBytes` of it: beyond that it throws rather than wait for an end that may never come.
 */
export class HttpHeadReader {
  private gathered = Buffer.alloc(0);
  /** True once push() has thrown for the size (not for malformed content). */
  overflowed = false;

  constructor(private readonly maxBytes: number = MAX_HTTP_HEAD_BYTES) {}

  /**
   * Takes the next chunk. Returns the head and whatever followed it in the stream (the next
   * protocol's first bytes) once the blank line has come, null until then. Throws when the head
   * is malformed or grows beyond maxBytes.
   */
  push(chunk: Buffer): { head: HttpHead; rest: Buffer } | null {
    // Only the last three bytes already held can start the end marker: no rescanning.
    const from = Math.max(0, this.gathered.length - (HEAD_END.length - 1));
    this.gathered = Buffer.concat([this.gathered, chunk]);
    const end = this.gathered.indexOf(HEAD_END, from);
    const headBytes = end === -1 ? this.gathered.length : end + HEAD_END.length;
    if (headBytes > this.maxBytes) {
      this.overflowed = true;
      throw new Error(`its HTTP head goes beyond ${this.maxBytes} bytes without ending`);
    }
    const binary = this.gathered.subarray(from, headBytes).findIndex(isBinary);
    if (binary !== -1) {
      // Frames (a core client that did not upgrade) show this at once: no need to wait for more.
      throw new Error(
        `it sent byte 0x${this.gathered[from + binary]?.toString(16).padStart(2, '0')} where an HTTP head was expected`,
      );
    }
    if (end === -1) return null;
    const head = parseHttpHead(this.gathered.toString('latin1', 0, end));
    return { head, rest: this.gathered.subarray(headBytes) };
  }
}

/** Control bytes other than tab, CR and LF, which no HTTP head contains. */
function isBinary(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;
}

/** Splits a head (without its closing blank line) into its start line and headers; throws when malformed. */
export function parseHttpHead(text: string): HttpHead {
  const [startLine = '', ...lines] = text.split('\r\n');
  if (startLine.trim() === '') throw new Error('its HTTP head has no start line');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon);
    // A folded line (starting with white space) is obsolete, and no upgrade peer sends one.
    if (!TOKEN.test(name)) throw new Error(`its HTTP head has a malformed header line ${quote(line)}`);
    const value = line.slice(colon + 1).trim();
    if ([...value].some((char) => isBinary(char.charCodeAt(0))))
      throw new Error(`its HTTP header ${name} has a control character in its value`);
    const key = name.toLowerCase();
    const earlier = headers.get(key);
    headers.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return { startLine, headers };
}

/** A line from a peer for a message: quoted, and cut short when long. */
export function quote(line: string): string {
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line);
}
