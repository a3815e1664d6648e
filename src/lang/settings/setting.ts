// Settings described once, as data: the client's connection-factory settings (core/client's
// CLIENT_SETTINGS, jms' JMS_SETTINGS) and the broker's limits (server's BROKER_LIMIT_SETTINGS).
// Options, setters, the XML loaders, connection URLs and the configuration reference all read the
// description, so that a setting has one name per place, one range and one default. Below every
// layer, as the client and the broker both describe settings this way.

/** What a setting is, wherever it is set. */
interface SettingDescription<T> {
  /** Its XML element (under hornetq-jms.xml's `<connection-factory>`, or hornetq-configuration.xml's root), or null where the file has none. */
  element: string | null;
  /** HornetQConnectionFactory's setter, or null (`ha` is a constructor argument; core-only options; the broker's). */
  setter: string | null;
  /** Its Java type in HornetQ (and so how its XML text is read). */
  javaType: 'int' | 'long' | 'double' | 'boolean' | 'String';
  /** What a number counts, for the reference: `ms`, `bytes`, `messages/s`. */
  unit?: string;
  default: T;
  /** HornetQ 2.4's default (HornetQClient.DEFAULT_*), or null for a setting of ours. */
  hornetq: { default: T } | null;
  /** One line for the reference page. */
  description: string;
}

/**
 * A whole number in [min, max], or one of `special` (HornetQ's -1: unbounded, forever, disabled).
 * Integers only: HornetQ's are Java ints and longs.
 */
export interface IntegerSetting extends SettingDescription<number> {
  kind: 'integer';
  min: number;
  max: number;
  special: readonly number[];
}

/** A finite number above `min` (or from it, with `minInclusive`) up to `max`. */
export interface DecimalSetting extends SettingDescription<number> {
  kind: 'decimal';
  min: number;
  minInclusive: boolean;
  max: number;
}

export interface BooleanSetting extends SettingDescription<boolean> {
  kind: 'boolean';
}

/** A string; `nullable` admits null (unset), `nonEmpty` refuses blank text. */
export interface TextSetting<T extends string | null = string | null> extends SettingDescription<T> {
  kind: 'text';
  nullable: boolean;
  nonEmpty: boolean;
}

export type Setting = IntegerSetting | DecimalSetting | BooleanSetting | TextSetting;

/** The description a value of type T takes: a number's is integer or decimal, and so on. */
export type SettingFor<T> = [T] extends [boolean]
  ? BooleanSetting
  : [T] extends [number]
    ? IntegerSetting | DecimalSetting
    : [T] extends [string | null]
      ? TextSetting<T>
      : never;

/** A table of settings: one description for each property of the values' type, by its name. */
export type SettingTable<Values> = { readonly [K in keyof Values]-?: SettingFor<Values[K]> };

/** The table's settings with their names, in the table's order. */
export function settingsOf<Values>(table: SettingTable<Values>): Array<[keyof Values & string, Setting]> {
  return Object.entries(table) as Array<[keyof Values & string, Setting]>;
}

/** Every setting's default, by name. */
export function defaultsOf<Values>(table: SettingTable<Values>): Values {
  return Object.fromEntries(settingsOf(table).map(([name, setting]) => [name, setting.default])) as Values;
}
