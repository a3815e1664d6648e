import type { InvalidSelectorException } from '../exceptions';
import {
  staticTypeOf,
  type ArithmeticOperator,
  type ComparisonOperator,
  type Expression,
  type Literal,
  type StaticType,
} from './ast';
import { selectorError } from './selector-error';
import {
  describePosition,
  describeToken,
  tokenize,
  type Keyword,
  type Operator,
  type Token,
} from './tokenizer';

const COMPARISONS: ReadonlySet<string> = new Set<ComparisonOperator>(['=', '<>', '<', '<=', '>', '>=']);
const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN_MAGNITUDE = 1n << 63n;
const UNSIGNED_LONG_MAX = (1n << 64n) - 1n;

/**
 * Parses a JMS 1.1 selector into a type-checked tree (null for an empty selector). Recursive descent, but every construct that
 * nests (parentheses, NOT, unary signs) counts against `maxDepth`, so hostile input such as
 * `((((…` fails with an InvalidSelectorException long before the stack runs out.
 */
export function parseExpression(source: string, maxDepth: number): Expression | null {
  const tokens = tokenize(source);
  // Nothing but whitespace: JMS treats it as no selector at all.
  if (tokens.length === 1) return null;
  return new Parser(tokens, maxDepth).parse();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly maxDepth: number,
  ) {}

  parse(): Expression {
    const expression = this.orExpression();
    const next = this.peek();
    if (next.type !== 'end') throw this.unexpected(next, 'AND, OR or the end of the selector');
    requireType(expression, 'boolean', 'the selector');
    return expression;
  }

  private orExpression(): Expression {
    return this.chain('OR', () => this.andExpression());
  }

  private andExpression(): Expression {
    return this.chain('AND', () => this.notExpression());
  }

  private chain(keyword: 'AND' | 'OR', operand: () => Expression): Expression {
    const first = operand();
    if (!this.atKeyword(keyword)) return first;
    requireType(first, 'boolean', keyword);
    const operands = [first];
    while (this.atKeyword(keyword)) {
      this.index++;
      const next = operand();
      requireType(next, 'boolean', keyword);
      operands.push(next);
    }
    return { kind: keyword === 'AND' ? 'and' : 'or', position: first.position, operands };
  }

  private notExpression(): Expression {
    const token = this.peek();
    if (!this.atKeyword('NOT')) return this.predicate();
    this.index++;
    this.enter(token);
    const operand = this.notExpression();
    this.depth--;
    requireType(operand, 'boolean', 'NOT');
    return { kind: 'not', position: token.position, operand };
  }

  private predicate(): Expression {
    const left = this.additive();
    const token = this.peek();
    if (token.type === 'operator' && COMPARISONS.has(token.text)) {
      this.index++;
      const operator = token.text as ComparisonOperator;
      const right = this.additive();
      if (operator !== '=' && operator !== '<>') {
        requireType(left, 'number', `'${operator}'`);
        requireType(right, 'number', `'${operator}'`);
      }
      return { kind: 'comparison', position: left.position, operator, left, right };
    }

    let negated = false;
    if (this.atKeyword('NOT')) {
      const after = this.tokens[this.index + 1];
      if (after?.type !== 'keyword' || !['BETWEEN', 'IN', 'LIKE'].includes(after.keyword)) {
        throw this.unexpected(after ?? token, 'BETWEEN, IN or LIKE after NOT');
      }
      this.index++;
      negated = true;
    }

    const operator = this.peek();
    if (operator.type !== 'keyword') return left;
    switch (operator.keyword) {
      case 'BETWEEN': {
        this.index++;
        const low = this.additive();
        this.expectKeyword('AND', 'AND between the bounds of BETWEEN');
        const high = this.additive();
        for (const operand of [left, low, high]) requireType(operand, 'number', 'BETWEEN');
        return { kind: 'between', position: left.position, negated, operand: left, low, high };
      }
      case 'IN': {
        const identifier = requireIdentifier(left, 'IN');
        this.index++;
        this.expectOperator('(', "'(' after IN");
        const values = [this.expectString('a string literal in the IN list')];
        while (this.atOperator(',')) {
          this.index++;
          values.push(this.expectString('a string literal after , in the IN list'));
        }
        this.expectOperator(')', "',' or ')' in the IN list");
        return { kind: 'in', position: left.position, negated, identifier, values };
      }
      case 'LIKE': {
        const identifier = requireIdentifier(left, 'LIKE');
        this.index++;
        const pattern = this.expectString('a string literal as the LIKE pattern');
        let escape: string | null = null;
        if (this.atKeyword('ESCAPE')) {
          this.index++;
          const token = this.peek();
          escape = this.expectString('a string literal after ESCAPE');
          if (escape.length === 0 || String.fromCodePoint(escape.codePointAt(0) ?? 0) !== escape) {
            throw selectorError(`the ESCAPE string ${describePosition(token)} must be exactly one character`);
          }
        }
        return { kind: 'like', position: left.position, negated, identifier, pattern, escape };
      }
      case 'IS': {
        const identifier = requireIdentifier(left, 'IS NULL');
        this.index++;
        const not = this.atKeyword('NOT');
        if (not) this.index++;
        this.expectKeyword('NULL', not ? 'NULL after IS NOT' : 'NULL or NOT NULL after IS');
        return { kind: 'isNull', position: left.position, negated: not, identifier };
      }
      default:
        return left;
    }
  }

  private additive(): Expression {
    return this.arithmetic('+', '-', () => this.multiplicative());
  }

  private multiplicative(): Expression {
    return this.arithmetic('*', '/', () => this.unary());
  }

  private arithmetic(a: ArithmeticOperator, b: ArithmeticOperator, operand: () => Expression): Expression {
    const first = operand();
    const rest: Array<{ operator: ArithmeticOperator; operand: Expression }> = [];
    for (let token = this.peek(); token.type === 'operator' && (token.text === a || token.text === b);) {
      const operator = token.text as ArithmeticOperator;
      if (rest.length === 0) requireType(first, 'number', `'${operator}'`);
      this.index++;
      const next = operand();
      requireType(next, 'number', `'${operator}'`);
      rest.push({ operator, operand: next });
      token = this.peek();
    }
    return rest.length === 0 ? first : { kind: 'arithmetic', position: first.position, first, rest };
  }

  private unary(): Expression {
    const token = this.peek();
    if (token.type !== 'operator' || (token.text !== '+' && token.text !== '-')) return this.primary();
    this.index++;
    const negate = token.text === '-';
    const next = this.peek();
    if (next.type === 'integer' || next.type === 'float') {
      this.index++;
      return { kind: 'literal', position: token.position, literal: numericLiteral(next, negate) };
    }
    this.enter(token);
    const operand = this.unary();
    this.depth--;
    requireType(operand, 'number', `unary '${token.text}'`);
    return { kind: 'sign', position: token.position, negate, operand };
  }

  private primary(): Expression {
    const token = this.peek();
    switch (token.type) {
      case 'identifier':
        this.index++;
        return { kind: 'identifier', position: token.position, name: token.text };
      case 'string':
        this.index++;
        return { kind: 'literal', position: token.position, literal: { type: 'string', value: token.value } };
      case 'integer':
      case 'float':
        this.index++;
        return { kind: 'literal', position: token.position, literal: numericLiteral(token, false) };
      case 'keyword':
        if (token.keyword === 'TRUE' || token.keyword === 'FALSE') {
          this.index++;
          return {
            kind: 'literal',
            position: token.position,
            literal: { type: 'boolean', value: token.keyword === 'TRUE' },
          };
        }
        throw this.unexpected(
          token,
          `an identifier, a literal or '(' (${token.keyword} is a reserved word and cannot name a property)`,
        );
      case 'operator':
        if (token.text === '(') {
          this.index++;
          this.enter(token);
          const inner = this.orExpression();
          this.expectOperator(')', "')'");
          this.depth--;
          return inner;
        }
        break;
      case 'end':
        break;
    }
    throw this.unexpected(token, "an identifier, a literal or '('");
  }

  private enter(token: Token): void {
    if (++this.depth > this.maxDepth) {
      throw selectorError(`nesting deeper than ${this.maxDepth} levels ${describePosition(token)}`);
    }
  }

  private peek(): Token {
    // The token list always ends with an `end` token and the parser never moves past it.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)] as Token;
  }

  private atKeyword(keyword: Keyword): boolean {
    const token = this.peek();
    return token.type === 'keyword' && token.keyword === keyword;
  }

  private atOperator(operator: Operator): boolean {
    const token = this.peek();
    return token.type === 'operator' && token.text === operator;
  }

  private expectKeyword(keyword: Keyword, expected: string): void {
    if (!this.atKeyword(keyword)) throw this.unexpected(this.peek(), expected);
    this.index++;
  }

  private expectOperator(operator: Operator, expected: string): void {
    if (!this.atOperator(operator)) throw this.unexpected(this.peek(), expected);
    this.index++;
  }

  private expectString(expected: string): string {
    const token = this.peek();
    if (token.type !== 'string') throw this.unexpected(token, expected);
    this.index++;
    return token.value;
  }

  private unexpected(token: Token, expected: string): InvalidSelectorException {
    return selectorError(`expected ${expected} but found ${describeToken(token)} ${describePosition(token)}`);
  }
}

function numericLiteral(token: Token & { type: 'integer' | 'float' }, negate: boolean): Literal {
  if (token.type === 'float') {
    return { type: token.single ? 'float' : 'double', value: negate ? -token.value : token.value };
  }
  let magnitude = token.magnitude;
  if (token.radix === 10) {
    if (magnitude > (negate ? LONG_MIN_MAGNITUDE : LONG_MAX)) throw outOfRange(token);
  } else {
    // Java reads hexadecimal and octal longs as 64-bit two's complement: 0xFFFFFFFFFFFFFFFF is -1.
    if (magnitude > UNSIGNED_LONG_MAX) throw outOfRange(token);
    magnitude = BigInt.asIntN(64, magnitude);
  }
  const value = Number(negate ? -magnitude : magnitude);
  return { type: 'long', value };
}

function outOfRange(token: Token): InvalidSelectorException {
  return selectorError(
    `${describeToken(token)} ${describePosition(token)} is outside the range of a Java long`,
  );
}

const TYPE_NAMES: Record<StaticType, string> = {
  boolean: 'a boolean expression',
  number: 'a number',
  string: 'a string',
  dynamic: 'an identifier',
};

/** Rejects what can never be valid whatever the message holds: `3 AND x`, `'a' + 1`, `TRUE < 2`. */
function requireType(expression: Expression, wanted: 'boolean' | 'number', context: string): void {
  const actual = staticTypeOf(expression);
  if (actual === wanted || actual === 'dynamic') return;
  const where = `at character ${expression.position + 1}`;
  throw selectorError(`${context} needs ${TYPE_NAMES[wanted]} but ${where} there is ${TYPE_NAMES[actual]}`);
}

function requireIdentifier(expression: Expression, operator: string): string {
  if (expression.kind === 'identifier') return expression.name;
  throw selectorError(
    `${operator} must follow an identifier, but at character ${expression.position + 1} there is ${TYPE_NAMES[staticTypeOf(expression)]}`,
  );
}
