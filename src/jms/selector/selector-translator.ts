/**
 * A JMS selector as HornetQ's JMS client sends it to the broker (its SelectorTranslator): the
 * header identifiers become HornetQ's core filter identifiers, and the delivery-mode literals
 * become the values HQDurable has. HornetQ's and Artemis' brokers know only the HQ names (a JMS
 * name there is an absent property), so a selector has to travel translated; ours knows both.
 *
 * Translated in this order, each over the result of the one before, as HornetQ does.
 */
const REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['JMSDeliveryMode', 'HQDurable'],
  ["'PERSISTENT'", "'DURABLE'"],
  ["'NON_PERSISTENT'", "'NON_DURABLE'"],
  ['JMSPriority', 'HQPriority'],
  ['JMSTimestamp', 'HQTimestamp'],
  ['JMSMessageID', 'HQUserID'],
  ['JMSExpiration', 'HQExpiration'],
];

/** The core filter for a JMS selector, exactly the string HornetQ 2.4's JMS client would send. */
export function toHornetQFilter(selector: string): string {
  let filter = selector;
  for (const [match, replacement] of REPLACEMENTS) filter = replaceWhole(filter, match, replacement);
  return filter;
}

const QUOTE = "'";

/**
 * Replaces each occurrence of `match` that stands alone (no identifier character right before or
 * after it). An identifier is replaced only outside string literals; a quoted literal (`match`
 * starts with a quote) wherever it stands, since it is itself a literal.
 *
 * The scan reproduces HornetQ's matcher exactly, quirks included, so that the same selector gives
 * the same filter from a Java and a Node client: it compares one character at a time and, on a
 * mismatch, starts over at the NEXT character without retrying the current one (so in `''PERSISTENT'`
 * the second quote cannot start a match); quotes toggle the in-literal state ('' included).
 */
function replaceWhole(input: string, match: string, replacement: string): string {
  const quotedMatch = match.startsWith(QUOTE);
  const starts: number[] = [];
  let inLiteral = false;
  let matched = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charAt(i);
    if (c === QUOTE) inLiteral = !inLiteral;
    if ((!inLiteral || quotedMatch) && c === match.charAt(matched)) {
      matched++;
      if (matched === match.length) {
        const start = i - match.length + 1;
        if (!isIdentifierPart(input.charAt(i + 1)) && !isIdentifierPart(input.charAt(start - 1))) {
          starts.push(start);
        }
        matched = 0;
      }
    } else {
      matched = 0;
    }
  }
  if (starts.length === 0) return input;
  let result = '';
  let from = 0;
  for (const start of starts) {
    result += input.slice(from, start) + replacement;
    from = start + match.length;
  }
  return result + input.slice(from);
}

/**
 * Java's Character.isJavaIdentifierPart for one UTF-16 unit: letters, digits, currency symbols,
 * connectors ('_'), combining marks, letter numbers, format characters, and the controls Java
 * ignores in identifiers (0x00–0x08, 0x0E–0x1B, 0x7F–0x9F). '' (outside the string) is not.
 */
const IDENTIFIER_PART = /^[\p{L}\p{Nl}\p{Nd}\p{Sc}\p{Pc}\p{Mn}\p{Mc}\p{Cf}]$/u;

function isIdentifierPart(c: string): boolean {
  if (c === '') return false;
  const unit = c.charCodeAt(0);
  const ignorable = unit <= 0x08 || (unit >= 0x0e && unit <= 0x1b) || (unit >= 0x7f && unit <= 0x9f);
  return ignorable || IDENTIFIER_PART.test(c);
}
