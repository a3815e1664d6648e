import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Problems } from '../problems';
import { decodeEntities } from './entities';
import type { XmlElement } from './xml-element';

/** Configuration files are small; anything bigger is refused before it is parsed. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** hornetq-configuration.xml needs 5 levels; this leaves room and stops pathological nesting. */
export const MAX_NESTING_DEPTH = 32;

/**
 * The parser sees every name behind this prefix, which no XML name can start with, so that no name
 * it stores as an object key is ever '__proto__', 'constructor' or the like. (fast-xml-parser 5
 * calls the tag transform twice for empty elements, hence the check.)
 */
const NAME_PREFIX = ' ';
const prefixed = (name: string): string => (name.startsWith(NAME_PREFIX) ? name : NAME_PREFIX + name);

const METADATA = XMLParser.getMetaDataSymbol() as symbol;
const TEXT = '#text';
const CDATA = '#cdata';

type ParserNode = Record<string, unknown>;

/**
 * Parses a configuration file safely: size bounded, no DOCTYPE or entity declaration (so no DTD,
 * no external or expanding entities), well-formedness checked, nesting bounded. Returns the root
 * element, or null after adding to `problems` what made the file unreadable.
 */
export function parseXml(source: string, problems: Problems): XmlElement | null {
  if (Buffer.byteLength(source, 'utf8') > MAX_CONFIG_BYTES) {
    problems.errorAtLine(null, `the file is larger than ${MAX_CONFIG_BYTES} bytes`);
    return null;
  }
  const text = source.startsWith('\ufeff') ? source.slice(1) : source;
  const lines = new LineIndex(text);
  if (!rejectDeclarations(text, lines, problems)) return null;
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    problems.errorAtLine(valid.err.line, `malformed XML: ${valid.err.msg}`);
    return null;
  }
  const tooDeep = firstTooDeep(text);
  if (tooDeep !== null) {
    problems.errorAtLine(
      lines.lineOf(tooDeep),
      `elements are nested deeper than ${MAX_NESTING_DEPTH} levels`,
    );
    return null;
  }
  let nodes: ParserNode[];
  try {
    nodes = createParser().parse(text) as ParserNode[];
  } catch (error) {
    problems.errorAtLine(null, `malformed XML: ${(error as Error).message}`);
    return null;
  }
  const roots = nodes.filter((node) => elementName(node) !== null);
  const root = roots[0];
  if (root === undefined || roots.length > 1) {
    problems.errorAtLine(null, 'malformed XML: a configuration file has exactly one root element');
    return null;
  }
  return toElement(root, lines, problems);
}

function createParser(): XMLParser {
  return new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    allowBooleanAttributes: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    cdataPropName: CDATA,
    captureMetaData: true,
    maxNestedTags: MAX_NESTING_DEPTH + 1,
    transformTagName: prefixed,
    transformAttributeName: prefixed,
  });
}

/** A DOCTYPE or an entity declaration anywhere outside comments and CDATA refuses the file. */
function rejectDeclarations(text: string, lines: LineIndex, problems: Problems): boolean {
  const visible = maskCommentsAndCdata(text);
  const declaration = /<!(DOCTYPE|ENTITY)/i.exec(visible);
  if (declaration === null) return true;
  const kind = (declaration[1] ?? '').toUpperCase();
  problems.errorAtLine(
    lines.lineOf(declaration.index),
    kind === 'DOCTYPE'
      ? 'a DOCTYPE is not allowed in a configuration file (no DTDs, no entity declarations)'
      : 'an entity declaration is not allowed in a configuration file',
  );
  return false;
}

const TAG = /<(\/)?[^\s/>!?]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/)?>/g;

/** The offset of the first start tag nested too deep (the text is well-formed by now), or null. */
function firstTooDeep(text: string): number | null {
  let depth = 0;
  for (const tag of maskCommentsAndCdata(text).matchAll(TAG)) {
    if (tag[1] !== undefined) depth--;
    else if (tag[2] === undefined && ++depth > MAX_NESTING_DEPTH) return tag.index;
    else if (tag[2] !== undefined && depth + 1 > MAX_NESTING_DEPTH) return tag.index;
  }
  return null;
}

function maskCommentsAndCdata(text: string): string {
  return text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, (hidden) => hidden.replace(/[^\n]/g, ' '));
}

function elementName(node: ParserNode): string | null {
  for (const key of Object.keys(node)) if (key.startsWith(NAME_PREFIX)) return key.slice(NAME_PREFIX.length);
  return null;
}

function toElement(node: ParserNode, lines: LineIndex, problems: Problems): XmlElement | null {
  const name = elementName(node) ?? '';
  const metadata = (node as Record<symbol, unknown>)[METADATA] as { startIndex?: number } | undefined;
  const line = lines.lineOf(metadata?.startIndex ?? 0);
  const decode = (raw: string): string =>
    decodeEntities(raw, (message) => problems.error({ name, line }, message));
  const attributes = new Map<string, string>();
  const rawAttributes = (node[':@'] ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(rawAttributes)) {
    attributes.set(key.slice(NAME_PREFIX.length), decode(String(rawAttributes[key])));
  }
  const children: XmlElement[] = [];
  let text = '';
  for (const child of (node[NAME_PREFIX + name] ?? []) as ParserNode[]) {
    if (TEXT in child) text += decode(String(child[TEXT]));
    else if (CDATA in child) text += cdataText(child[CDATA]);
    else if (elementName(child) !== null) {
      const element = toElement(child, lines, problems);
      if (element === null) return null;
      children.push(element);
    }
  }
  return { name, attributes, children, text, line };
}

function cdataText(value: unknown): string {
  const parts = Array.isArray(value) ? (value as ParserNode[]) : [];
  return parts.map((part) => String(part[TEXT] ?? '')).join('');
}

/** Offsets to 1-based line numbers. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }
}
