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

/**
 * Where a broker is: `tcp://host:port` (the port defaults to 5445), as HornetQ's URLs write it,
 * with the HTTP upgrade params in the query for a broker behind a web port:
 * `tcp://host:8080?http-upgrade-enabled=true&http-upgrade-endpoint=http-acceptor`.
 */
export interface BrokerUrl {
  host: string;
  port: number;
  /** The query's connector params, by HornetQ's names. */
  params: { 'http-upgrade-enabled'?: boolean; 'http-upgrade-endpoint'?: string };
}

/** The query keys a URL may carry (Artemis' spellings too), by the connector param they set. */
const URL_PARAMS: Readonly<Record<string, 'http-upgrade-enabled' | 'http-upgrade-endpoint'>> = {
  'http-upgrade-enabled': 'http-upgrade-enabled',
  httpUpgradeEnabled: 'http-upgrade-enabled',
  'http-upgrade-endpoint': 'http-upgrade-endpoint',
  httpUpgradeEndpoint: 'http-upgrade-endpoint',
};

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
  if ((url.pathname !== '' && url.pathname !== '/') || url.hash !== '') {
    throw new InvalidArgumentError('It must be tcp://host:port with nothing after the port but a query.');
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port === '' ? 5445 : Number(url.port), params: urlParams(url.searchParams) };
}

function urlParams(query: URLSearchParams): BrokerUrl['params'] {
  const params: BrokerUrl['params'] = {};
  for (const [key, value] of query) {
    const param = URL_PARAMS[key];
    if (param === undefined) {
      throw new InvalidArgumentError(
        `Its query may set http-upgrade-enabled and http-upgrade-endpoint, not '${key}'.`,
      );
    }
    if (param === 'http-upgrade-enabled') {
      if (value !== 'true' && value !== 'false') {
        throw new InvalidArgumentError(`${key} must be true or false, not '${value}'.`);
      }
      params[param] = value === 'true';
    } else {
      if (value === '') throw new InvalidArgumentError(`${key} must name an acceptor.`);
      params[param] = value;
    }
  }
  return params;
}
