import {
  CLIENT_SETTINGS,
  CONNECTION_URL_PARAMS,
  parseConnectionUrl,
  resolveClientOptions,
} from '../../../src/core/client';
import { allowedValues, settingsOf, type Setting } from '../../../src/lang/settings';
import { CONNECTION_FACTORY_SETTINGS } from '../../../src/jms/connection-factory-settings';
import { HornetQConnectionFactory } from '../../../src/jms/hornetq-connection-factory';
import { ConfigurationException } from '../../../src/jndi/configuration-exception';
import { FACTORY_SETTINGS } from '../../../src/jndi/config/connection-factory-settings';
import { parseJmsConfiguration } from '../../../src/jndi/config/jms-config-parser';

/**
 * Every reader of a connection-factory setting (hornetq-jms.xml, the factory's setter, the core
 * options, a connection URL) accepts and refuses the same values, because they all check against
 * the one table. The cases come from the table, so a setting added to it is covered here at once.
 */

type Reader = 'xml' | 'setter' | 'core' | 'url';
type Verdict = 'accepted' | string;

const FILE = 'hornetq-jms.xml';

/** Values at and around each setting's bounds, its special values, and values of the wrong kind. */
function candidates(setting: Setting): unknown[] {
  switch (setting.kind) {
    case 'integer': {
      const { min, max, special } = setting;
      return [...new Set([min - 1, min, min + 0.5, max, max + 1, -2, -1, 0, ...special])];
    }
    case 'decimal':
      return [setting.min, setting.min + 0.5, setting.min - 1, -1, 0, ...(setting.max === 1 ? [1, 1.5] : [])];
    case 'boolean':
      return [true, false, 'yes'];
    case 'text':
      return [setting.default, '', ' ', null, ...(setting.nullable ? ['some-id'] : [])];
  }
}

function verdict(action: () => unknown): Verdict {
  try {
    action();
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
}

/** A file whose factory has `element` on line 5 holding `text`. */
const factoryFile = (element: string, text: string): string => `<configuration xmlns="urn:hornetq">
  <connection-factory name="cf">
    <connectors><connector-ref connector-name="netty"/></connectors>
    <entries><entry name="cf"/></entries>
    <${element}>${text}</${element}>
  </connection-factory>
</configuration>`;

function readers(name: string, setting: Setting, value: unknown): Partial<Record<Reader, Verdict>> {
  const found: Partial<Record<Reader, Verdict>> = {};
  if (setting.element !== null && value !== null) {
    const source = factoryFile(setting.element, String(value));
    found.xml = verdict(() => parseJmsConfiguration(source, FILE, { env: {} }));
  }
  if (setting.setter !== null) {
    const factory = new HornetQConnectionFactory() as unknown as Record<string, (v: unknown) => void>;
    found.setter = verdict(() => factory[setting.setter as string]?.(value));
  }
  if (name in CLIENT_SETTINGS) found.core = verdict(() => resolveClientOptions({ [name]: value }));
  if (CONNECTION_URL_PARAMS.includes(name) && value !== null) {
    found.url = verdict(() =>
      parseConnectionUrl(`tcp://127.0.0.1:5445?${name}=${encodeURIComponent(String(value))}`),
    );
  }
  return found;
}

const CASES: Array<[string, unknown, Setting]> = settingsOf(CONNECTION_FACTORY_SETTINGS).flatMap(
  ([name, setting]) => candidates(setting).map((value): [string, unknown, Setting] => [name, value, setting]),
);

describe('XML, setter, core options and URL agree on every value of every setting', () => {
  test.each(CASES)('%s = %p', (name, value, setting) => {
    const found = readers(name, setting, value);
    const accepted = Object.fromEntries(Object.entries(found).map(([r, v]) => [r, v === 'accepted']));
    const expected = Object.values(accepted)[0];
    // The load-balancing policy's name is checked against known policies only when the locator
    // is made (HornetQ loads the class then): the candidates are the known default or not text.
    expect(accepted).toEqual(Object.fromEntries(Object.keys(accepted).map((r) => [r, expected])));
    // Every setting has at least two readers, or there would be nothing to agree (null has no
    // XML or URL form: only the setter takes it).
    if (value !== null) expect(Object.keys(found).length).toBeGreaterThanOrEqual(2);
  });
});

describe('a refused number names the setting, the value and the allowed range in each reader', () => {
  const refusedNumbers = CASES.filter(
    ([name, value, setting]) =>
      typeof value === 'number' &&
      Number.isInteger(value) &&
      setting.kind === 'integer' &&
      value >= -2 &&
      value <= 2_147_483_647 &&
      readers(name, setting, value).setter !== 'accepted' &&
      setting.setter !== null,
  );

  test('there are such values for most settings', () => {
    expect(new Set(refusedNumbers.map(([name]) => name)).size).toBeGreaterThanOrEqual(15);
  });

  test.each(refusedNumbers)('%s = %p', (name, value, setting) => {
    const found = readers(name, setting, value);
    const range = `must be ${allowedValues(setting)} (actual value: ${String(value)})`;
    expect(found.setter).toBe(`${name} ${range}`);
    if (found.core !== undefined) expect(found.core).toContain(`${name} ${range}`);
    if (found.url !== undefined) expect(found.url).toContain(`parameter '${name}': ${name} ${range}`);
    if (found.xml !== undefined) expect(found.xml).toBe(`${FILE}:5: <${setting.element}> ${range}`);
  });
});

test('an XML error is a ConfigurationException with the file, line and element', () => {
  let error: unknown = null;
  try {
    parseJmsConfiguration(factoryFile('confirmation-window-size', '0'), FILE, { env: {} });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ConfigurationException);
  expect(error).toMatchObject({ file: FILE, line: 5, element: 'confirmation-window-size' });
});

test('the XML loader knows an element for exactly the settings the table gives one, plus xa and failover-on-server-shutdown', () => {
  const fromTable = settingsOf(CONNECTION_FACTORY_SETTINGS)
    .map(([, setting]) => setting.element)
    .filter((element) => element !== null);
  expect([...FACTORY_SETTINGS.keys()].sort()).toEqual(
    [...fromTable, 'xa', 'failover-on-server-shutdown'].sort(),
  );
});

describe('each setter of the table is the factory method of that name, and sets what applySettings sets', () => {
  const settable = settingsOf(CONNECTION_FACTORY_SETTINGS).filter(([, setting]) => setting.setter !== null);

  /** A valid value other than the default. */
  function otherValue(setting: Setting): unknown {
    switch (setting.kind) {
      case 'integer':
        return setting.default === setting.max
          ? setting.min
          : setting.default === -1
            ? setting.min + 1
            : setting.max;
      case 'decimal':
        return setting.max === 1 ? 0.5 : 3;
      case 'boolean':
        return !setting.default;
      case 'text':
        return setting.nullable
          ? 'some-id'
          : 'org.apache.activemq.artemis.api.core.client.loadbalance.RandomConnectionLoadBalancingPolicy';
    }
  }

  test.each(settable)('%s', (name, setting) => {
    const value = otherValue(setting);
    const bySetter = new HornetQConnectionFactory();
    const byTable = new HornetQConnectionFactory();
    (bySetter as unknown as Record<string, (v: unknown) => void>)[setting.setter as string]?.(value);
    byTable.applySettings({ [name]: value });
    const getter = (f: HornetQConnectionFactory): unknown => {
      const methods = f as unknown as Record<string, (() => unknown) | undefined>;
      const stem = (setting.setter as string).slice(3);
      return (methods[`get${stem}`] ?? methods[`is${stem}`])?.call(f);
    };
    expect(getter(bySetter)).toEqual(value);
    expect(getter(byTable)).toEqual(value);
  });
});
