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

/** Where a broker is: `tcp://host:port` (the port defaults to 5445), as HornetQ's URLs write it. */
export interface BrokerUrl {
  host: string;
  port: number;
}

export function parseUrl(value: string): BrokerUrl {
  // `localhost:5445` would parse as the scheme "localhost:"; say what was probably meant.
  if (!value.includes('://') && value.trim() !== '') {
    throw new InvalidArgumentError(`It has no scheme: did you mean tcp://${value.trim()}?`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('It must look like tcp://host:port.');
  }
  if (url.protocol !== 'tcp:') {
    throw new InvalidArgumentError(`Only tcp:// URLs are supported, not ${url.protocol}//.`);
  }
  if (url.hostname === '') throw new InvalidArgumentError('It names no host: write tcp://host:port.');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError('It must be tcp://host:port with nothing after the port.');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port === '' ? 5445 : Number(url.port) };
}
