/**
 * The syntax tree of a selector. `position` is the 0-based offset of the node's first character,
 * kept so that type errors found after parsing can still say where they are.
 */

export type Literal =
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  /** Exact numerics are Java longs; approximate ones are doubles, or floats when written 1.5f. */
  | { readonly type: 'long' | 'float' | 'double'; readonly value: number };

export type ArithmeticOperator = '+' | '-' | '*' | '/';
export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Expression =
  | { readonly kind: 'literal'; readonly position: number; readonly literal: Literal }
  | { readonly kind: 'identifier'; readonly position: number; readonly name: string }
  | {
      readonly kind: 'sign';
      readonly position: number;
      readonly negate: boolean;
      readonly operand: Expression;
    }
  /** A left-associative chain of one precedence level (`a + b - c`), kept flat so depth stays small. */
  | {
      readonly kind: 'arithmetic';
      readonly position: number;
      readonly first: Expression;
      readonly rest: ReadonlyArray<{ readonly operator: ArithmeticOperator; readonly operand: Expression }>;
    }
  | {
      readonly kind: 'comparison';
      readonly position: number;
      readonly operator: ComparisonOperator;
      readonly left: Expression;
      readonly right: Expression;
    }
  | {
      readonly kind: 'between';
      readonly position: number;
      readonly negated: boolean;
      readonly operand: Expression;
      readonly low: Expression;
      readonly high: Expression;
    }
  | {
      readonly kind: 'in';
      readonly position: number;
      readonly negated: boolean;
      readonly identifier: string;
      readonly values: readonly string[];
    }
  | {
      readonly kind: 'like';
      readonly position: number;
      readonly negated: boolean;
      readonly identifier: string;
      readonly pattern: string;
      readonly escape: string | null;
    }
  | {
      readonly kind: 'isNull';
      readonly position: number;
      readonly negated: boolean;
      readonly identifier: string;
    }
  | { readonly kind: 'not'; readonly position: number; readonly operand: Expression }
  | { readonly kind: 'and' | 'or'; readonly position: number; readonly operands: readonly Expression[] };

/** What the parser knows of a value's type; an identifier's type is only known when a message arrives. */
export type StaticType = 'boolean' | 'number' | 'string' | 'dynamic';

export function staticTypeOf(expression: Expression): StaticType {
  switch (expression.kind) {
    case 'literal':
      return expression.literal.type === 'boolean' || expression.literal.type === 'string'
        ? expression.literal.type
        : 'number';
    case 'identifier':
      return 'dynamic';
    case 'sign':
    case 'arithmetic':
      return 'number';
    default:
      return 'boolean';
  }
}
