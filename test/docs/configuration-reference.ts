import { execFileSync } from 'node:child_process';
import { CLIENT_SETTINGS, CONNECTION_URL_PARAMS, type CoreOnlySettingName } from '../../src/core/client';
import { allowedValues, settingsOf, type Setting } from '../../src/lang/settings';
import { CONNECTION_FACTORY_SETTINGS } from '../../src/jms/connection-factory-settings';
import { ELEMENTS_WITHOUT_SETTING } from '../../src/jndi/config/connection-factory-settings';
import { BROKER_LIMIT_SETTINGS } from '../../src/server/broker-limit-settings';

/**
 * The parts of docs/reference/configuration.md that are generated from the settings tables, each
 * between two marker comments: `npm run docs:config` writes them,
 * test/docs/configuration-reference.test.ts checks that the committed page holds what the tables give.
 */

export const REGENERATE_COMMAND = 'npm run docs:config';

/** The generated sections, by the name their markers carry. */
export type SectionName = 'connection-factory settings' | 'broker limits';

export const beginMarker = (name: SectionName): string =>
  `<!-- BEGIN GENERATED: ${name}, from the settings table (${REGENERATE_COMMAND}) -->`;
export const endMarker = (name: SectionName): string => `<!-- END GENERATED: ${name} -->`;

const CORE_ONLY: readonly CoreOnlySettingName[] = ['ackBatchSize', 'maxFrameBytes'];

const code = (text: string): string => `\`${text}\``;
const cell = (text: string): string => text.replaceAll('|', '\\|');

function formatValue(setting: Setting, value: unknown): string {
  if (value === null) return code('null');
  if (typeof value === 'string') return code(value);
  if (typeof value === 'number' && setting.unit === 'bytes' && value >= 1024 && value % 1024 === 0)
    return `${value} (${binarySize(value)})`;
  return String(value);
}

function binarySize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes % size === 0 && bytes >= size) return `${bytes / size} ${unit}`;
  return `${bytes} bytes`;
}

function typeOf(setting: Setting): string {
  return setting.unit === undefined ? setting.javaType : `${setting.javaType} (${setting.unit})`;
}

function hornetqDefault(setting: Setting): string {
  return setting.hornetq === null ? 'none (ours)' : formatValue(setting, setting.hornetq.default);
}

function row(name: string, setting: Setting): string {
  const names = [
    name === '' ? null : code(name),
    setting.setter === null ? null : code(`${setting.setter}()`),
  ]
    .filter((part) => part !== null)
    .join('<br>');
  return `| ${[
    names === '' ? '—' : names,
    setting.element === null ? '—' : code(`<${setting.element}>`),
    name !== '' && CONNECTION_URL_PARAMS.includes(name) ? 'yes' : 'no',
    typeOf(setting),
    formatValue(setting, setting.default),
    cell(allowedValues(setting)),
    hornetqDefault(setting),
    cell(setting.description),
  ].join(' | ')} |`;
}

const HEADER = [
  '| Setting and setter | hornetq-jms.xml element | In a URL | Type | Default | Allowed values | HornetQ 2.4 default | What it does |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** The connection-factory settings section, markers included. */
export function renderConnectionFactorySettings(): string {
  const factoryRows = settingsOf(CONNECTION_FACTORY_SETTINGS).map(([name, setting]) => row(name, setting));
  const elementRows = [...ELEMENTS_WITHOUT_SETTING.values()].map((setting) => row('', setting));
  const coreRows = CORE_ONLY.map((name) => row(name, CLIENT_SETTINGS[name]));
  return [
    beginMarker('connection-factory settings'),
    '',
    "Every setting of `HornetQConnectionFactory`: its setter (the getter is `get…` or `is…`), its element in hornetq-jms.xml's `<connection-factory>`, and whether a connection URL takes it, by the setting's name or the element's (`?confirmationWindowSize=1048576` or `?confirmation-window-size=1048576`; a setting without an element by its name written with dashes, `?retry-jitter=0.2`). The setters, the file, the URL and the core client's options check the same range and report `NAME must be ALLOWED (actual value: V)`; the file adds its name and line.",
    '',
    ...HEADER,
    ...factoryRows,
    ...elementRows,
    '',
    'Options of a core `ClientSessionFactory` or `ServerLocator` only (the JMS factory has neither setter nor element for them):',
    '',
    ...HEADER,
    ...coreRows,
    '',
    endMarker('connection-factory settings'),
  ].join('\n');
}

function limitRow(name: string, setting: Setting): string {
  return `| ${[
    code(name),
    setting.element === null ? '—' : code(`<${setting.element}>`),
    typeOf(setting),
    formatValue(setting, setting.default),
    cell(allowedValues(setting)),
    cell(setting.description),
  ].join(' | ')} |`;
}

/** The broker limits section, markers included. */
export function renderBrokerLimits(): string {
  return [
    beginMarker('broker limits'),
    '',
    '| `BrokerConfiguration` field | hornetq-configuration.xml element | Type | Default | Allowed values | What it bounds |',
    '| --- | --- | --- | --- | --- | --- |',
    ...settingsOf(BROKER_LIMIT_SETTINGS).map(([name, setting]) => limitRow(name, setting)),
    '',
    endMarker('broker limits'),
  ].join('\n');
}

const SECTIONS: ReadonlyArray<[SectionName, () => string]> = [
  ['connection-factory settings', renderConnectionFactorySettings],
  ['broker limits', renderBrokerLimits],
];

/** The page with one generated section replaced; throws unless its markers are there once each, in order. */
export function withGeneratedSection(page: string, name: SectionName, section: string): string {
  const [begin, end] = [beginMarker(name), endMarker(name)];
  const from = page.indexOf(begin);
  const to = page.indexOf(end);
  if (from === -1 || to === -1 || to < from || page.indexOf(begin, from + 1) !== -1)
    throw new Error(`the page must hold ${begin} and then ${end}, once each`);
  return page.slice(0, from) + section + page.slice(to + end.length);
}

/** The page with every generated section replaced by what its table gives. */
export function withGeneratedSections(page: string): string {
  return SECTIONS.reduce((text, [name, render]) => withGeneratedSection(text, name, render()), page);
}

/**
 * The page as `npm run docs:config` writes it: its generated sections from the tables, the whole
 * formatted as `npm run format` would (Prettier aligns the tables), so that the lint agrees.
 * Prettier runs as a command: its module loads itself by a dynamic import, which jest's
 * CommonJS runtime cannot do.
 */
export function generatedPage(page: string, file: string): string {
  return execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', file],
    { input: withGeneratedSections(page), encoding: 'utf8' },
  );
}
