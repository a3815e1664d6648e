import { InvalidArgumentError } from 'commander';

/**
 * Parsers for commander options. Each throws InvalidArgumentError, which commander prints as one
 * line naming the option and the value: "option '--count <n>' argument 'x' is invalid. ...".
 */

const MAX_INT = 2_147_483_647;

/** An integer in [min, max]. */
export function integerIn(min: number, max = MAX_INT): (value: string) => number {
  return (value) => {
    const parsed = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`It must be an integer from ${min} to ${max}.`);
    }
    return parsed;
  };
}

/** A finite number > 0 (a rate, a duration in seconds). */
export function positiveNumber(value: string): number {
  const parsed = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('It must be a number greater than 0.');
  }
  return parsed;
}

export const parsePort = integerIn(1, 65_535);
