import { invalidValue } from '../../lang/argument-errors';
import { CLIENT_SETTINGS, type FactoryClientSettings } from './settings';
import { namedSettingProblem, settingsOf, type Setting } from '../../lang/settings';
import { CONNECT_TIMEOUT_PARAM, DEFAULT_PORT, type TransportConfiguration } from './connector';

/**
 * What a connection URL says: `tcp://host:port?params` or `tls://host:port?params` (TLS on). The
 * query takes Artemis' spelling (`sslEnabled`, `trustStorePath`, `reconnectAttempts`) or HornetQ's
 * (the connector's `ssl-enabled`, `trust-store-path`; the factory's `reconnect-attempts`).
 */
export interface ParsedConnectionUrl {
  /** The broker to dial, with the URL's transport parameters under HornetQ's connector names. */
  connector: TransportConfiguration;
  /** The factory settings the URL gives, by ClientOptions' names. */
  settings: ConnectionUrlSettings;
}

/** The session-factory settings a URL may carry: every one a connection factory has. */
export type ConnectionUrlSettings = Partial<FactoryClientSettings>;

/** The factory settings a URL may set, by ClientOptions' names. */
export type ConnectionUrlSettingName = keyof FactoryClientSettings;

type ValueKind = 'boolean' | 'integer' | 'number' | 'text';

/** One query parameter: where it goes, under which key, and how its value is read. */
interface UrlParam {
  target: 'connector' | 'settings';
  key: string;
  kind: ValueKind;
  /** A password: its value is never repeated, in an error or in maskConnectionUrl. */
  secret?: boolean;
}

const connectorParam = (key: string, kind: ValueKind, secret = false): UrlParam => ({
  target: 'connector',
  key,
  kind,
  ...(secret ? { secret } : {}),
});
const settingParam = (key: ConnectionUrlSettingName, kind: ValueKind): UrlParam => ({
  target: 'settings',
  key,
  kind,
});

/** HornetQ's connector parameter name, then Artemis' URL spelling of it. */
const CONNECTOR_PARAMS: ReadonlyArray<[string, string, UrlParam]> = [
  ['ssl-enabled', 'sslEnabled', connectorParam('ssl-enabled', 'boolean')],
  ['key-store-path', 'keyStorePath', connectorParam('key-store-path', 'text')],
  ['key-store-password', 'keyStorePassword', connectorParam('key-store-password', 'text', true)],
  ['key-path', 'keyPath', connectorParam('key-path', 'text')],
  ['trust-store-path', 'trustStorePath', connectorParam('trust-store-path', 'text')],
  ['trust-store-password', 'trustStorePassword', connectorParam('trust-store-password', 'text', true)],
  ['enabled-protocols', 'enabledProtocols', connectorParam('enabled-protocols', 'text')],
  ['enabled-cipher-suites', 'enabledCipherSuites', connectorParam('enabled-cipher-suites', 'text')],
  ['verify-host', 'verifyHost', connectorParam('verify-host', 'boolean')],
  ['http-upgrade-enabled', 'httpUpgradeEnabled', connectorParam('http-upgrade-enabled', 'boolean')],
  ['http-upgrade-endpoint', 'httpUpgradeEndpoint', connectorParam('http-upgrade-endpoint', 'text')],
  [CONNECT_TIMEOUT_PARAM, 'connectTimeoutMillis', connectorParam(CONNECT_TIMEOUT_PARAM, 'integer')],
];

const KIND_OF: Readonly<Record<Setting['kind'], ValueKind>> = {
  integer: 'integer',
  decimal: 'number',
  boolean: 'boolean',
  text: 'text',
};

/**
 * HornetQ's spelling (the hornetq-jms.xml element, or the name written so for a setting of ours),
 * then Artemis' (the setter's), for each setting a factory has.
 */
const FACTORY_PARAMS: ReadonlyArray<[string, ConnectionUrlSettingName, ValueKind]> = settingsOf(
  CLIENT_SETTINGS,
)
  .filter(([, setting]) => setting.element !== null || setting.setter !== null)
  .map(([name, setting]) => [
    setting.element ?? kebabCase(name),
    name as ConnectionUrlSettingName,
    KIND_OF[setting.kind],
  ]);

function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** Every accepted query name, both spellings, by what it sets. */
const PARAMS: ReadonlyMap<string, UrlParam> = new Map<string, UrlParam>([
  ...CONNECTOR_PARAMS.flatMap(([hornetq, artemis, param]): Array<[string, UrlParam]> => [
    [hornetq, param],
    [artemis, param],
  ]),
  ...FACTORY_PARAMS.flatMap(([hornetq, key, kind]): Array<[string, UrlParam]> => [
    [hornetq, settingParam(key, kind)],
    [key, settingParam(key, kind)],
  ]),
  // Artemis writes the TTL both ways.
  ['connectionTtl', settingParam('connectionTTL', 'integer')],
]);

const SCHEMES = ['tcp', 'tls'] as const;

/** The query names a URL may use, for the error that refuses another. */
export const CONNECTION_URL_PARAMS: readonly string[] = [...PARAMS.keys()];

/**
 * Reads a connection URL into a connector and factory settings; throws a RangeError
 * (ERR_INVALID_ARG_VALUE) naming the part that is wrong and where it starts (0-based), the URL
 * shown with its passwords masked. Pure: no file is read (stores are read at the first connect).
 */
export function parseConnectionUrl(url: string): ParsedConnectionUrl {
  const fail = (position: number, problem: string): never => {
    throw invalidValue(`connection URL ${maskConnectionUrl(url)}: ${problem} (at position ${position})`);
  };
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) {
    fail(0, `no scheme: write tcp://${url.trim()} or tls://${url.trim()}`);
  }
  const scheme = url.slice(0, schemeEnd).toLowerCase();
  if (!(SCHEMES as readonly string[]).includes(scheme)) {
    fail(0, `scheme '${scheme}' is not tcp or tls`);
  }
  const authorityStart = schemeEnd + 3;
  const queryStart = url.indexOf('?', authorityStart);
  const authorityEnd = queryStart === -1 ? url.length : queryStart;
  const connector: TransportConfiguration = {
    ...readAuthority(url.slice(authorityStart, authorityEnd), authorityStart, fail),
    ...(scheme === 'tls' ? { 'ssl-enabled': true } : {}),
  };
  const settings: Record<string, unknown> = {};
  if (queryStart !== -1) readQuery(url, queryStart + 1, connector, settings, fail);
  if (scheme === 'tls' && connector['ssl-enabled'] === false) {
    fail(0, 'tls:// with ssl-enabled false: use tcp:// for a plain connection');
  }
  return { connector, settings: settings as ConnectionUrlSettings };
}

type Fail = (position: number, problem: string) => never;

/** `host`, `host:port`, `[v6]` or `[v6]:port`; no credentials, path or fragment. */
function readAuthority(authority: string, offset: number, fail: Fail): { host: string; port: number } {
  const at = authority.lastIndexOf('@');
  if (at !== -1) {
    fail(offset, 'credentials do not go in the URL (give the user and password to createConnection)');
  }
  const other = authority.search(/[/#]/);
  if (other !== -1) {
    fail(offset + other, 'nothing may follow host:port but a ?query (no path, no #fragment)');
  }
  let host: string;
  let portText: string | undefined;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close === -1) fail(offset, "an IPv6 address in [ ] has no ']'");
    host = authority.slice(1, close);
    const rest = authority.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) fail(offset + close + 1, "expected ':port' after ']'");
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = authority.indexOf(':');
    host = colon === -1 ? authority : authority.slice(0, colon);
    portText = colon === -1 ? undefined : authority.slice(colon + 1);
  }
  if (host === '') fail(offset, 'no host: write tcp://host:port');
  if (portText === undefined) return { host, port: DEFAULT_PORT };
  const portAt = offset + authority.length - portText.length;
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65_535) {
    fail(portAt, `port '${portText}' is not a number from 1 to 65535`);
  }
  return { host, port: Number(portText) };
}

/** `name=value&...`: each name known, each set once, each value of its kind. */
function readQuery(
  url: string,
  start: number,
  connector: TransportConfiguration,
  settings: Record<string, unknown>,
  fail: Fail,
): void {
  const seen = new Map<string, string>();
  let position = start;
  for (const pair of url.slice(start).split('&')) {
    const here = position;
    position += pair.length + 1;
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals), here, fail);
    const param = PARAMS.get(name);
    if (param === undefined) {
      fail(here, `unknown parameter '${name}' (known: ${CONNECTION_URL_PARAMS.join(', ')})`);
    }
    const earlier = seen.get(param.key);
    if (earlier !== undefined) {
      fail(here, `parameter '${name}' sets what '${earlier}' already set`);
    }
    seen.set(param.key, name);
    if (equals === -1) fail(here, `parameter '${name}' has no value (write ${name}=VALUE)`);
    const raw = decode(pair.slice(equals + 1), here, fail);
    const value = readValue(name, param, raw, here, fail);
    if (param.target === 'connector') connector[param.key] = value;
    else settings[param.key] = value;
  }
}

function readValue(
  name: string,
  param: UrlParam,
  raw: string,
  position: number,
  fail: Fail,
): string | number | boolean {
  const value = parseParam(name, param, raw, position, fail);
  const problem =
    param.target === 'settings'
      ? namedSettingProblem(param.key, settingOf(param.key as ConnectionUrlSettingName), value)
      : typeof value === 'number' && !(value > 0 && value <= 2_147_483_647)
        ? `${param.key} must be 1..2147483647 (actual value: ${raw})`
        : null;
  if (problem !== null) fail(position, `parameter '${name}': ${problem}`);
  return value;
}

function settingOf(name: ConnectionUrlSettingName): Setting {
  return CLIENT_SETTINGS[name];
}

/** The parameter's text as its kind says (the setting's range is checked apart). */
function parseParam(
  name: string,
  param: UrlParam,
  raw: string,
  position: number,
  fail: Fail,
): string | number | boolean {
  const shown = param.secret === true ? 'a value' : `'${raw}'`;
  switch (param.kind) {
    case 'boolean':
      if (raw !== 'true' && raw !== 'false')
        fail(position, `parameter '${name}' must be true or false, not ${shown}`);
      return raw === 'true';
    case 'text':
      if (raw === '') fail(position, `parameter '${name}' is empty`);
      return raw;
    case 'integer':
    case 'number': {
      const pattern = param.kind === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
      if (!pattern.test(raw))
        fail(
          position,
          `parameter '${name}' must be ${param.kind === 'integer' ? 'an integer' : 'a number'}, not ${shown}`,
        );
      return Number(raw);
    }
  }
}

function decode(text: string, position: number, fail: Fail): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return fail(position, `'${text}' is not valid percent-encoding`);
  }
}

/** The URL with every password parameter's value replaced by `***`: what may be shown or logged. */
export function maskConnectionUrl(url: string): string {
  const withoutPassword = url.replace(/^([^:]*:\/\/[^@/?#:]*):[^@/?#]*@/, '$1:***@');
  return withoutPassword.replace(/([?&])([^=&]*)=([^&]*)/g, (whole, separator: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // An undecodable name is shown as written; whether it is a secret is judged by the raw text.
    }
    return PARAMS.get(decoded)?.secret === true || /password/i.test(decoded)
      ? `${separator}${name}=***`
      : whole;
  });
}
