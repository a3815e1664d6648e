const PREDEFINED = new Map<string, string>([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g;

/**
 * Decodes the five XML entities and character references (`&#35;`, `&#x23;`). Nothing else is an
 * entity here: there is no DTD to declare one, so `&name;` is reported through `onProblem`.
 */
export function decodeEntities(raw: string, onProblem: (message: string) => void): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(REFERENCE, (reference: string, body: string) => {
    if (body.startsWith('#')) {
      const code = body.startsWith('#x') ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!isXmlChar(code)) {
        onProblem(`${reference} is not a character XML allows`);
        return '';
      }
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED.get(body);
    if (value === undefined) {
      onProblem(
        `unknown entity ${reference}: only &lt; &gt; &amp; &quot; &apos; and character references are allowed`,
      );
      return '';
    }
    return value;
  });
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Escapes text so that it reads back as itself inside XML text or an attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"'\r\n]/g, (c) => `&#${c.charCodeAt(0)};`);
}
