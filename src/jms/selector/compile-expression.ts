import type { CoreMessage } from '../../core/protocol/core-message';
import { MessageHeader } from '../../core/protocol/message-header';
import { PropertyKind, type TypedValue } from '../../core/protocol/typed-properties';
import type { ArithmeticOperator, ComparisonOperator, Expression, Literal } from './ast';
import { LikePattern } from './like-pattern';

/** SQL three-valued logic. */
const FALSE = 0;
const TRUE = 1;
const UNKNOWN = 2;
type Truth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

/*
 * Run-time value kinds. Integers of every width are Java longs (as HornetQ promotes them); the
 * numeric kinds are ordered so that the wider of two is their maximum (Java numeric promotion).
 */
const NULL = 0;
const BOOLEAN = 1;
const LONG = 2;
const FLOAT = 3;
const DOUBLE = 4;
const STRING = 5;
/** A value no selector operator applies to (a BYTES property): comparisons with it are false. */
const OTHER = 6;

/**
 * One value during evaluation. Each node of the compiled tree owns the slots it needs, so that
 * evaluating a message allocates nothing (beyond JMSMessageID's 'ID:' prefix).
 */
class Slot {
  kind = NULL;
  number = 0;
  string = '';
  boolean = false;
}

type ValueFn = (message: CoreMessage, out: Slot) => void;
type TruthFn = (message: CoreMessage) => Truth;

/** Turns a checked tree into a predicate: true only when the selector evaluates to TRUE. */
export function compileExpression(expression: Expression): (message: CoreMessage) => boolean {
  const test = compileTruth(expression);
  return (message) => test(message) === TRUE;
}

function compileTruth(expression: Expression): TruthFn {
  switch (expression.kind) {
    case 'literal': {
      const truth =
        expression.literal.type === 'boolean' ? (expression.literal.value ? TRUE : FALSE) : UNKNOWN;
      return () => truth;
    }
    case 'comparison':
      return compileComparison(expression.operator, expression.left, expression.right);
    case 'between': {
      const operand = compileValue(expression.operand);
      const low = compileValue(expression.low);
      const high = compileValue(expression.high);
      const [v, lo, hi] = [new Slot(), new Slot(), new Slot()];
      const negated = expression.negated;
      return (message) => {
        operand(message, v);
        low(message, lo);
        high(message, hi);
        const truth = and(compare('<=', lo, v), compare('<=', v, hi));
        return negated ? not(truth) : truth;
      };
    }
    case 'in': {
      const values = new Set(expression.values);
      return compileStringTest(expression.identifier, expression.negated, (s) => values.has(s));
    }
    case 'like': {
      const pattern = new LikePattern(expression.pattern, expression.escape);
      return compileStringTest(expression.identifier, expression.negated, (s) => pattern.matches(s));
    }
    case 'isNull': {
      const read = compileIdentifier(expression.identifier);
      const slot = new Slot();
      const [ifNull, ifSet]: [Truth, Truth] = expression.negated ? [FALSE, TRUE] : [TRUE, FALSE];
      return (message) => {
        read(message, slot);
        return slot.kind === NULL ? ifNull : ifSet;
      };
    }
    case 'not': {
      const operand = compileTruth(expression.operand);
      return (message) => not(operand(message));
    }
    case 'and': {
      const operands = expression.operands.map(compileTruth);
      return (message) => {
        let result: Truth = TRUE;
        for (const operand of operands) {
          const truth = operand(message);
          if (truth === FALSE) return FALSE;
          if (truth === UNKNOWN) result = UNKNOWN;
        }
        return result;
      };
    }
    case 'or': {
      const operands = expression.operands.map(compileTruth);
      return (message) => {
        let result: Truth = FALSE;
        for (const operand of operands) {
          const truth = operand(message);
          if (truth === TRUE) return TRUE;
          if (truth === UNKNOWN) result = UNKNOWN;
        }
        return result;
      };
    }
    case 'identifier':
    case 'sign':
    case 'arithmetic': {
      // Only an identifier gets here after type checking (a bare boolean property: `MyBoolean`).
      const read = compileValue(expression);
      const slot = new Slot();
      return (message) => {
        read(message, slot);
        return slot.kind === BOOLEAN ? (slot.boolean ? TRUE : FALSE) : UNKNOWN;
      };
    }
  }
}

function compileStringTest(identifier: string, negated: boolean, test: (value: string) => boolean): TruthFn {
  const read = compileIdentifier(identifier);
  const slot = new Slot();
  return (message) => {
    read(message, slot);
    if (slot.kind === NULL) return UNKNOWN;
    // A non-string is a comparison of unlike types: false, so its negation is true.
    const truth = slot.kind === STRING && test(slot.string) ? TRUE : FALSE;
    return negated ? not(truth) : truth;
  };
}

function compileComparison(operator: ComparisonOperator, left: Expression, right: Expression): TruthFn {
  const readLeft = compileValue(left);
  const readRight = compileValue(right);
  const a = new Slot();
  const b = new Slot();
  return (message) => {
    readLeft(message, a);
    readRight(message, b);
    return compare(operator, a, b);
  };
}

/**
 * JMS 1.1 §3.8.1.2: NULL on either side gives UNKNOWN; numbers compare across widths by Java
 * numeric promotion; strings and booleans support only = and <>; values of unlike types compare
 * as FALSE (for <> too).
 */
function compare(operator: ComparisonOperator, a: Slot, b: Slot): Truth {
  if (a.kind === NULL || b.kind === NULL) return UNKNOWN;
  if (isNumeric(a.kind) && isNumeric(b.kind)) {
    let x = a.number;
    let y = b.number;
    // long against float compares as float in Java.
    if (a.kind === FLOAT && b.kind === LONG) y = Math.fround(y);
    else if (a.kind === LONG && b.kind === FLOAT) x = Math.fround(x);
    return NUMERIC_TESTS[operator](x, y) ? TRUE : FALSE;
  }
  if ((operator === '=' || operator === '<>') && a.kind === b.kind) {
    if (a.kind === STRING) return (a.string === b.string) === (operator === '=') ? TRUE : FALSE;
    if (a.kind === BOOLEAN) return (a.boolean === b.boolean) === (operator === '=') ? TRUE : FALSE;
  }
  return FALSE;
}

const NUMERIC_TESTS: Record<ComparisonOperator, (x: number, y: number) => boolean> = {
  '=': (x, y) => x === y,
  '<>': (x, y) => x !== y,
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
};

function not(truth: Truth): Truth {
  return truth === UNKNOWN ? UNKNOWN : truth === TRUE ? FALSE : TRUE;
}

function and(a: Truth, b: Truth): Truth {
  if (a === FALSE || b === FALSE) return FALSE;
  return a === TRUE && b === TRUE ? TRUE : UNKNOWN;
}

function isNumeric(kind: number): boolean {
  return kind >= LONG && kind <= DOUBLE;
}

function compileValue(expression: Expression): ValueFn {
  switch (expression.kind) {
    case 'literal':
      return compileLiteral(expression.literal);
    case 'identifier':
      return compileIdentifier(expression.name);
    case 'sign': {
      const operand = compileValue(expression.operand);
      const negate = expression.negate;
      return (message, out) => {
        operand(message, out);
        if (!isNumeric(out.kind)) out.kind = NULL;
        else if (negate) out.number = out.kind === LONG ? negateLong(out.number) : -out.number;
      };
    }
    case 'arithmetic': {
      const first = compileValue(expression.first);
      const operators = expression.rest.map((r) => r.operator);
      const operands = expression.rest.map((r) => compileValue(r.operand));
      const right = new Slot();
      return (message, out) => {
        first(message, out);
        for (let i = 0; i < operands.length; i++) {
          if (!isNumeric(out.kind)) {
            out.kind = NULL;
            return;
          }
          (operands[i] as ValueFn)(message, right);
          if (!isNumeric(right.kind)) {
            out.kind = NULL;
            return;
          }
          applyArithmetic(operators[i] as ArithmeticOperator, out, right);
        }
      };
    }
    default:
      break;
  }
  const truth = compileTruth(expression);
  return (message, out) => {
    const value = truth(message);
    if (value === UNKNOWN) out.kind = NULL;
    else setBoolean(out, value === TRUE);
  };
}

function compileLiteral(literal: Literal): ValueFn {
  switch (literal.type) {
    case 'boolean':
      return (_message, out) => setBoolean(out, literal.value);
    case 'string':
      return (_message, out) => setString(out, literal.value);
    case 'long':
    case 'float':
    case 'double': {
      const kind = literal.type === 'long' ? LONG : literal.type === 'float' ? FLOAT : DOUBLE;
      return (_message, out) => {
        out.kind = kind;
        out.number = literal.value;
      };
    }
  }
}

/**
 * Header fields as a selector sees them on a core message, under their JMS names (what a selector
 * says) and under HornetQ's core filter names (what HornetQ's JMS client and ours send, see
 * selector-translator.ts, and what core clients write). Every other name is a message property,
 * as in HornetQ's filter: an identifier nothing defines (HornetQ's marker filters `__HQX=-1` and
 * `_HQX=-1`) is NULL, so a comparison with it is UNKNOWN and selects nothing. JMSXDeliveryCount is
 * the consumer's count, which the broker does not have at routing time, so it is NULL here.
 */
function compileIdentifier(name: string): ValueFn {
  switch (name) {
    case 'JMSDeliveryMode':
      return (message, out) => setString(out, message.durable ? 'PERSISTENT' : 'NON_PERSISTENT');
    case 'HQDurable':
      return (message, out) => setString(out, message.durable ? 'DURABLE' : 'NON_DURABLE');
    case 'JMSPriority':
    case 'HQPriority':
      return (message, out) => setNumber(out, message.priority);
    case 'JMSMessageID':
      return (message, out) => {
        if (message.userId === null) out.kind = NULL;
        else setString(out, 'ID:' + message.userId);
      };
    case 'HQUserID':
      // HornetQ concatenates the id as it is, so a message without one reads 'ID:null' (not NULL).
      return (message, out) => setString(out, 'ID:' + String(message.userId));
    case 'JMSTimestamp':
    case 'HQTimestamp':
      return (message, out) => setNumber(out, message.timestamp);
    case 'JMSExpiration':
    case 'HQExpiration':
      return (message, out) => setNumber(out, message.expiration);
    case 'HQSize':
      return (message, out) => setNumber(out, message.encodedSize());
    case 'JMSXDeliveryCount':
      return (_message, out) => {
        out.kind = NULL;
      };
    case 'JMSXGroupID':
      return compileProperty(MessageHeader.GROUP_ID);
    default:
      return compileProperty(name);
  }
}

function compileProperty(name: string): ValueFn {
  return (message, out) => load(message.properties.get(name), out);
}

function load(typed: TypedValue | undefined, out: Slot): void {
  if (typed === undefined) {
    out.kind = NULL;
    return;
  }
  switch (typed.kind) {
    case PropertyKind.NULL:
      out.kind = NULL;
      return;
    case PropertyKind.BOOLEAN:
      return setBoolean(out, typed.value);
    case PropertyKind.BYTE:
    case PropertyKind.SHORT:
    case PropertyKind.INT:
      return setNumber(out, typed.value);
    case PropertyKind.LONG:
      // A long beyond ±2^53 becomes the nearest double: the engine holds every integer, literals too, as one.
      return setNumber(out, Number(typed.value));
    case PropertyKind.FLOAT:
      out.kind = FLOAT;
      out.number = typed.value;
      return;
    case PropertyKind.DOUBLE:
      out.kind = DOUBLE;
      out.number = typed.value;
      return;
    case PropertyKind.STRING:
    case PropertyKind.CHAR:
      // A char converts to a one-character String (the JMS conversion table), so it compares as one.
      return setString(out, typed.value);
    case PropertyKind.BYTES:
      out.kind = OTHER;
      return;
  }
}

function setBoolean(out: Slot, value: boolean): void {
  out.kind = BOOLEAN;
  out.boolean = value;
}

function setString(out: Slot, value: string): void {
  out.kind = STRING;
  out.string = value;
}

/** An integer-valued field; a message built in-process with a fractional "int" reads as a double. */
function setNumber(out: Slot, value: number): void {
  out.kind = Number.isInteger(value) ? LONG : DOUBLE;
  out.number = value;
}

/** `a op= b` with Java's promotion; integer division by zero is UNKNOWN (Java would throw). */
function applyArithmetic(operator: ArithmeticOperator, a: Slot, b: Slot): void {
  const kind = Math.max(a.kind, b.kind);
  if (kind === LONG) {
    const result = longArithmetic(operator, a.number, b.number);
    if (result === null) a.kind = NULL;
    else a.number = result;
    return;
  }
  let x = a.number;
  let y = b.number;
  if (kind === FLOAT) {
    x = Math.fround(x);
    y = Math.fround(y);
  }
  let result: number;
  switch (operator) {
    case '+':
      result = x + y;
      break;
    case '-':
      result = x - y;
      break;
    case '*':
      result = x * y;
      break;
    case '/':
      result = x / y;
      break;
  }
  a.kind = kind;
  a.number = kind === FLOAT ? Math.fround(result) : result;
}

const LONG_MIN = -(2 ** 63);

/**
 * Java long arithmetic on integer-valued doubles: exact while results stay within ±2^53 (every
 * long a core message carries does), otherwise computed exactly with BigInt, wrapped to 64 bits
 * as Java overflows, and rounded back to the nearest double.
 */
function longArithmetic(operator: ArithmeticOperator, x: number, y: number): number | null {
  let result: number;
  switch (operator) {
    case '+':
      result = x + y;
      if (!Number.isSafeInteger(result)) return wrap(BigInt(x) + BigInt(y));
      break;
    case '-':
      result = x - y;
      if (!Number.isSafeInteger(result)) return wrap(BigInt(x) - BigInt(y));
      break;
    case '*':
      result = x * y;
      if (!Number.isSafeInteger(result)) return wrap(BigInt(x) * BigInt(y));
      break;
    case '/':
      if (y === 0) return null;
      // For |x| < 2^53 the rounded quotient never crosses an integer, so truncating it is exact.
      if (!Number.isSafeInteger(x)) return wrap(BigInt(x) / BigInt(y));
      result = Math.trunc(x / y);
      break;
  }
  return result + 0;
}

function negateLong(x: number): number {
  return x === LONG_MIN ? x : -x + 0;
}

function wrap(value: bigint): number {
  return Number(BigInt.asIntN(64, value));
}
