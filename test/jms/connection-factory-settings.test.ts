import { CLIENT_SETTINGS } from '../../src/core/client';
import { JMS_SETTINGS } from '../../src/jms/jms-settings';
import {
  allowedValues,
  settingProblem,
  settingsOf,
  type IntegerSetting,
  type Setting,
} from '../../src/lang/settings';

const EVERY_SETTING: Array<[string, Setting]> = [...settingsOf(CLIENT_SETTINGS), ...settingsOf(JMS_SETTINGS)];
const INTEGER_SETTINGS = EVERY_SETTING.filter(
  (entry): entry is [string, IntegerSetting] => entry[1].kind === 'integer',
);

describe("the connection factory's settings tables (core client and JMS)", () => {
  test.each(EVERY_SETTING)('%s: its default is a value it accepts', (_name, setting) => {
    expect(settingProblem(setting, setting.default)).toBeNull();
  });

  test.each(EVERY_SETTING.filter(([, setting]) => setting.hornetq !== null))(
    "%s: its default is HornetQ 2.4's",
    (_name, setting) => {
      expect(setting.default).toEqual(setting.hornetq?.default);
    },
  );

  test.each(INTEGER_SETTINGS)(
    '%s: accepts its bounds and special values, refuses just outside them',
    (_name, setting) => {
      for (const value of [setting.min, setting.max, ...setting.special])
        expect(settingProblem(setting, value)).toBeNull();
      for (const value of [setting.min - 1, setting.max + 1].filter((v) => !setting.special.includes(v)))
        expect(settingProblem(setting, value)).toBe(
          `must be ${allowedValues(setting)} (actual value: ${value})`,
        );
      expect(settingProblem(setting, setting.min + 0.5)).not.toBeNull();
    },
  );

  test('no setting allows more than a Java int or Node timer does, except the large-message bound', () => {
    const wide = INTEGER_SETTINGS.filter(([, setting]) => setting.max > 2_147_483_647).map(([n]) => n);
    expect(wide).toEqual(['maxLargeMessageBytes']);
  });

  test("a time setting's range ends at Node's timer limit", () => {
    const times = INTEGER_SETTINGS.filter(([, setting]) => setting.unit === 'ms');
    expect(times.map(([, setting]) => setting.max)).toEqual(times.map(() => 2_147_483_647));
    expect(times.length).toBeGreaterThanOrEqual(6);
  });

  test('each element and each setter belongs to one setting', () => {
    const elements = EVERY_SETTING.map(([, s]) => s.element).filter((e) => e !== null);
    const setters = EVERY_SETTING.map(([, s]) => s.setter).filter((s) => s !== null);
    expect(new Set(elements).size).toBe(elements.length);
    expect(new Set(setters).size).toBe(setters.length);
  });

  test('a setter is named after its setting', () => {
    for (const [settingName, setting] of EVERY_SETTING)
      if (setting.setter !== null)
        expect(setting.setter).toBe(`set${settingName[0]?.toUpperCase()}${settingName.slice(1)}`);
  });

  test('the core-only settings are those with neither a setter nor an element', () => {
    const coreOnly = settingsOf(CLIENT_SETTINGS)
      .filter(([, setting]) => setting.setter === null && setting.element === null)
      .map(([n]) => n);
    expect(coreOnly).toEqual(['ackBatchSize', 'maxFrameBytes']);
  });
});
