import type { BooleanSetting, DecimalSetting, IntegerSetting, Setting, TextSetting } from './setting';

// Each message reads after the setting's name in whatever place it has there: `confirmationWindowSize`
// for a setter or an option, `<confirmation-window-size>` in hornetq-jms.xml, a URL's parameter.

const actual = (value: unknown): string =>
  `(actual value: ${typeof value === 'string' ? `'${value}'` : String(value)})`;

/** What an integer setting allows, in words: `-1 or an integer from 1 to 2147483647`. */
export function integerRange(setting: IntegerSetting): string {
  const range = `an integer from ${setting.min} to ${setting.max}`;
  return setting.special.length === 0 ? range : `${setting.special.join(', ')} or ${range}`;
}

/** What a decimal setting allows, in words: `a number greater than 0`, `a number from 0 to 1`. */
export function decimalRange(setting: DecimalSetting): string {
  const { min, max, minInclusive } = setting;
  if (max === Number.MAX_VALUE)
    return minInclusive ? `a number of at least ${min}` : `a number greater than ${min}`;
  return minInclusive ? `a number from ${min} to ${max}` : `a number greater than ${min} and at most ${max}`;
}

/** What a text setting allows, in words. */
export function textRange(setting: TextSetting): string {
  const text = setting.nonEmpty ? 'a non-empty string' : 'a string';
  return setting.nullable ? `${text} or null` : text;
}

/** What the setting allows, in words, for an error or the reference page. */
export function allowedValues(setting: Setting): string {
  switch (setting.kind) {
    case 'integer':
      return integerRange(setting);
    case 'decimal':
      return decimalRange(setting);
    case 'boolean':
      return 'true or false';
    case 'text':
      return textRange(setting);
  }
}

export function integerProblem(setting: IntegerSetting, value: unknown): string | null {
  const valid =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    (setting.special.includes(value) || (value >= setting.min && value <= setting.max));
  return valid ? null : `must be ${integerRange(setting)} ${actual(value)}`;
}

export function decimalProblem(setting: DecimalSetting, value: unknown): string | null {
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (setting.minInclusive ? value >= setting.min : value > setting.min) &&
    value <= setting.max;
  return valid ? null : `must be ${decimalRange(setting)} ${actual(value)}`;
}

export function booleanProblem(_setting: BooleanSetting, value: unknown): string | null {
  return typeof value === 'boolean' ? null : `must be true or false ${actual(value)}`;
}

export function textProblem(setting: TextSetting, value: unknown): string | null {
  const valid =
    (value === null && setting.nullable) ||
    (typeof value === 'string' && (!setting.nonEmpty || value.trim().length > 0));
  return valid ? null : `must be ${textRange(setting)} ${actual(value)}`;
}

/** What is wrong with a value for the setting (`must be …, (actual value: …)`), or null when it is allowed. */
export function settingProblem(setting: Setting, value: unknown): string | null {
  switch (setting.kind) {
    case 'integer':
      return integerProblem(setting, value);
    case 'decimal':
      return decimalProblem(setting, value);
    case 'boolean':
      return booleanProblem(setting, value);
    case 'text':
      return textProblem(setting, value);
  }
}

/** As settingProblem, the message starting with the setting's name: `retryInterval must be …`. */
export function namedSettingProblem(name: string, setting: Setting, value: unknown): string | null {
  const problem = settingProblem(setting, value);
  return problem === null ? null : `${name} ${problem}`;
}
