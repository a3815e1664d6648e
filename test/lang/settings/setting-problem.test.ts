import {
  allowedValues,
  namedSettingProblem,
  settingProblem,
  type DecimalSetting,
  type IntegerSetting,
  type Setting,
  type TextSetting,
} from '../../../src/lang/settings';

const base = {
  element: null,
  setter: null,
  default: 0,
  hornetq: null,
  description: 'a test setting',
} as const;

const window: IntegerSetting = { ...base, kind: 'integer', javaType: 'int', min: 1, max: 100, special: [-1] };
const multiplier: DecimalSetting = {
  ...base,
  kind: 'decimal',
  javaType: 'double',
  min: 0,
  minInclusive: false,
  max: Number.MAX_VALUE,
};
const fraction: DecimalSetting = { ...multiplier, min: 0, minInclusive: true, max: 1 };
const name: TextSetting = {
  ...base,
  kind: 'text',
  javaType: 'String',
  default: null,
  nullable: true,
  nonEmpty: false,
};
const policy: TextSetting = { ...name, default: 'x', nullable: false, nonEmpty: true };

describe('an integer setting', () => {
  test.each([-1, 1, 50, 100])('accepts %p: a special value or one in [min, max]', (value) => {
    expect(settingProblem(window, value)).toBeNull();
  });

  test.each([0, -2, 101, 1.5, Number.NaN, Infinity, '5', null, undefined])(
    'refuses %p, saying what is allowed and what was given',
    (value) => {
      const shown = typeof value === 'string' ? `'${value}'` : String(value);
      expect(settingProblem(window, value)).toBe(
        `must be -1 or an integer from 1 to 100 (actual value: ${shown})`,
      );
    },
  );

  test('without special values, says only the range', () => {
    expect(allowedValues({ ...window, special: [] })).toBe('an integer from 1 to 100');
  });
});

describe('a decimal setting', () => {
  test('above an exclusive minimum: the minimum itself is refused', () => {
    expect(settingProblem(multiplier, 0.001)).toBeNull();
    expect(settingProblem(multiplier, 1e300)).toBeNull();
    expect(settingProblem(multiplier, 0)).toBe('must be a number greater than 0 (actual value: 0)');
    expect(settingProblem(multiplier, Infinity)).toBe(
      'must be a number greater than 0 (actual value: Infinity)',
    );
  });

  test('between inclusive bounds: both bounds are accepted', () => {
    expect([0, 0.5, 1].map((v) => settingProblem(fraction, v))).toEqual([null, null, null]);
    expect(settingProblem(fraction, 1.01)).toBe('must be a number from 0 to 1 (actual value: 1.01)');
    expect(settingProblem(fraction, -0.01)).toBe('must be a number from 0 to 1 (actual value: -0.01)');
  });
});

describe('a boolean setting', () => {
  const flag: Setting = { ...base, kind: 'boolean', javaType: 'boolean', default: false };
  test('takes true and false, nothing else', () => {
    expect([true, false].map((v) => settingProblem(flag, v))).toEqual([null, null]);
    expect(settingProblem(flag, 'true')).toBe("must be true or false (actual value: 'true')");
    expect(settingProblem(flag, 1)).toBe('must be true or false (actual value: 1)');
  });
});

describe('a text setting', () => {
  test('nullable: null and any string', () => {
    expect([null, '', 'id'].map((v) => settingProblem(name, v))).toEqual([null, null, null]);
    expect(settingProblem(name, 5)).toBe('must be a string or null (actual value: 5)');
  });

  test('non-empty: blank text and null are refused', () => {
    expect(settingProblem(policy, 'RoundRobin')).toBeNull();
    expect(settingProblem(policy, ' ')).toBe("must be a non-empty string (actual value: ' ')");
    expect(settingProblem(policy, null)).toBe('must be a non-empty string (actual value: null)');
  });
});

test('a named problem starts with the name, as the setters and the core options report it', () => {
  expect(namedSettingProblem('confirmationWindowSize', window, 0)).toBe(
    'confirmationWindowSize must be -1 or an integer from 1 to 100 (actual value: 0)',
  );
  expect(namedSettingProblem('confirmationWindowSize', window, 5)).toBeNull();
});
