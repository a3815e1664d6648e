import { InvalidSelectorException } from '../exceptions';

/** HornetQ's name for the failure, shared by the JMS exception and the broker's HornetQException. */
export const INVALID_SELECTOR_CODE = 'INVALID_FILTER_EXPRESSION';

export function selectorError(detail: string): InvalidSelectorException {
  return new InvalidSelectorException(`Invalid selector: ${detail}`, INVALID_SELECTOR_CODE);
}
