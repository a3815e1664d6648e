import type { CoreMessage } from '../../core/protocol/core-message';
import { HornetQException } from '../../core/protocol/hornetq-exception';
import { InvalidSelectorException } from '../exceptions';
import { compileExpression } from './compile-expression';
import { parseExpression } from './parser';
import { INVALID_SELECTOR_CODE, selectorError } from './selector-error';

/**
 * The longest selector accepted, in UTF-16 code units. Large enough for HornetQ's own long-literal
 * test (a 4800-character string, HORNETQ-545) and long IN lists; small enough that a hostile peer
 * cannot make the broker parse megabytes per consumer.
 */
export const MAX_SELECTOR_LENGTH = 8192;

/** The deepest nesting of parentheses, NOT and unary signs accepted. */
export const MAX_SELECTOR_DEPTH = 100;

/**
 * A parsed JMS message selector. Structurally a broker `Filter`: the broker receives
 * `selectorFilterFactory` by injection rather than importing this layer.
 */
export interface Selector {
  readonly expression: string;
  /** True only when the selector evaluates to TRUE (FALSE and UNKNOWN do not select). */
  match(message: CoreMessage): boolean;
}

class CompiledSelector implements Selector {
  constructor(
    readonly expression: string,
    readonly match: (message: CoreMessage) => boolean,
  ) {}
}

const SELECT_ALL = (): boolean => true;

/**
 * Parses and compiles a JMS 1.1 selector. An empty or all-whitespace selector selects every
 * message. Throws InvalidSelectorException saying where the error is and what was expected.
 */
export function parseSelector(expression: string): Selector {
  if (expression.length > MAX_SELECTOR_LENGTH) {
    throw selectorError(
      `the selector is ${expression.length} characters long; at most ${MAX_SELECTOR_LENGTH} are allowed`,
    );
  }
  const tree = parseExpression(expression, MAX_SELECTOR_DEPTH);
  return new CompiledSelector(expression, tree === null ? SELECT_ALL : compileExpression(tree));
}

/** `parseSelector` for the broker: an invalid selector is HornetQ's INVALID_FILTER_EXPRESSION. */
export function selectorFilterFactory(expression: string): Selector {
  try {
    return parseSelector(expression);
  } catch (error) {
    if (error instanceof InvalidSelectorException) {
      throw new HornetQException(INVALID_SELECTOR_CODE, error.message, { cause: error });
    }
    throw error;
  }
}
