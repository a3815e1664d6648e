import { matchProblem } from '../../server/security/address-match';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';

/**
 * Whether the `match` of a `<security-setting>` or `<address-setting>` is one the broker can use;
 * if not, the problem is reported at the element (file:line), where the operator wrote it, rather
 * than by the broker later without a place.
 */
export function isUsableMatch(element: XmlElement, match: string, problems: Problems): boolean {
  const problem = matchProblem(match);
  if (problem !== null) problems.error(element, `match '${quoted(match)}' is invalid: ${problem}`);
  return problem === null;
}

/** A very long match is cut in the message: its line says where it is. */
function quoted(match: string): string {
  return match.length > 80 ? `${match.slice(0, 40)}...` : match;
}
