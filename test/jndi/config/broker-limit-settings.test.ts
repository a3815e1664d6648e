import { allowedValues, settingsOf, type IntegerSetting } from '../../../src/lang/settings';
import {
  DEFAULT_BROKER_CONFIGURATION,
  validateBrokerConfiguration,
} from '../../../src/server/broker-configuration';
import { BROKER_LIMIT_SETTINGS } from '../../../src/server/broker-limit-settings';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';

/**
 * hornetq-configuration.xml and BrokerConfiguration's validation accept and refuse the same values
 * of every broker limit, because both check against BROKER_LIMIT_SETTINGS; the cases come from the
 * table, so a limit added to it is covered here at once.
 */

const FILE = 'hornetq-configuration.xml';
// A small frame cap, so that max-unfinished-frame-bytes' own rule (at least the frame cap) does
// not refuse what its range allows.
const BASE = { ...DEFAULT_BROKER_CONFIGURATION, maxFrameBytes: 1024, preAuthMaxFrameBytes: 1024 };

function verdict(action: () => unknown): string {
  try {
    action();
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
}

const CASES: Array<[string, number, IntegerSetting]> = settingsOf(BROKER_LIMIT_SETTINGS).flatMap(
  ([name, setting]) => {
    const s = setting as IntegerSetting;
    const values = [...new Set([s.min - 1, s.min, s.min + 0.5, s.max, s.max + 1, -1, 0, s.default])].filter(
      (value) => !(name === 'maxUnfinishedFrameBytes' && value > 0 && value < BASE.maxFrameBytes),
    );
    return values.map((value): [string, number, IntegerSetting] => [name, value, s]);
  },
);

describe('hornetq-configuration.xml and BrokerConfiguration agree on every value of every limit', () => {
  test.each(CASES)('%s = %p', (name, value, setting) => {
    const xml = verdict(() =>
      parseServerConfiguration(
        `<configuration xmlns="urn:hornetq">\n  <${setting.element}>${value}</${setting.element}>\n</configuration>`,
        FILE,
        { env: {} },
      ),
    );
    const config = verdict(() => validateBrokerConfiguration({ ...BASE, [name]: value }));
    expect({ xml: xml === 'accepted', config: config === 'accepted' }).toEqual({
      xml: config === 'accepted',
      config: config === 'accepted',
    });
    const inRange = Number.isInteger(value) && value >= -1 && value <= 2_147_483_647;
    if (config !== 'accepted' && inRange) {
      const range = `must be ${allowedValues(setting)} (actual value: ${value})`;
      expect(config).toContain(`${name} (${setting.element}) ${range}`);
      expect(xml).toBe(`${FILE}:2: <${setting.element}> ${range}`);
    }
  });

  test('every limit has an element, and the defaults are what validation accepts', () => {
    for (const [, setting] of settingsOf(BROKER_LIMIT_SETTINGS)) expect(setting.element).not.toBeNull();
    expect(() => validateBrokerConfiguration(DEFAULT_BROKER_CONFIGURATION)).not.toThrow();
  });
});
