import { loadBalancingPolicyProblem } from '../../core/client';
import { type BooleanSetting, type Setting } from '../../lang/settings';
import {
  CONNECTION_FACTORY_SETTINGS,
  type ConnectionFactorySettings,
} from '../../jms/connection-factory-settings';
import type { HornetQConnectionFactory } from '../../jms/hornetq-connection-factory';
import type { Value } from './values';

/**
 * A value element of `<connection-factory>`: the setting it sets (CONNECTION_FACTORY_SETTINGS,
 * whose range the loader checks), and, for what is not implemented, what it means here (a
 * warning, when `warnWhen` says so or always).
 */
export interface FactoryElement {
  /** The setting's name in the table; null for an element that sets no setting (xa, failover-on-server-shutdown). */
  name: keyof ConnectionFactorySettings | null;
  setting: Setting;
  ignored?: string;
  warnWhen?: (value: Value) => boolean;
}

const THREADS = 'Node has no thread pools to size: the getter returns it, nothing else uses it';

/** Elements of HornetQ's schema that set nothing on a factory: described for the reader and the reference. */
export const ELEMENTS_WITHOUT_SETTING: ReadonlyMap<string, BooleanSetting> = new Map([
  [
    'xa',
    {
      kind: 'boolean',
      javaType: 'boolean',
      element: 'xa',
      setter: null,
      default: false,
      hornetq: { default: false },
      description: 'Whether an XA factory is bound: XA is not implemented here (a warning when true).',
    },
  ],
  [
    'failover-on-server-shutdown',
    {
      kind: 'boolean',
      javaType: 'boolean',
      element: 'failover-on-server-shutdown',
      setter: null,
      default: false,
      hornetq: { default: false },
      description:
        'Ignored, as HornetQ 2.2 and later ignore it: a clean broker shutdown is handled like any other failure.',
    },
  ],
] as const);

/** What an element that is read but not implemented means here (a warning). */
const NOTES: ReadonlyMap<string, Pick<FactoryElement, 'ignored' | 'warnWhen'>> = new Map<
  string,
  Pick<FactoryElement, 'ignored' | 'warnWhen'>
>([
  [
    'failover-on-server-shutdown',
    {
      ignored:
        'ignored, as HornetQ 2.2+ ignores it: a clean broker shutdown is handled like any other failure (reconnect-attempts decides)',
    },
  ],
  [
    'connection-load-balancing-policy-class-name',
    {
      // HornetQ's and Artemis' class names map to our policies (a fixed table of ours).
      ignored:
        "is not a policy this client has (HornetQ's or Artemis' RoundRobin, Random, RandomSticky or FirstElement ConnectionLoadBalancingPolicy, or key-sticky): createConnection on this factory fails until it names one",
      warnWhen: (value) => loadBalancingPolicyProblem(value) !== null,
    },
  ],
  ['use-global-pools', { ignored: THREADS }],
  ['scheduled-thread-pool-max-size', { ignored: THREADS }],
  ['thread-pool-max-size', { ignored: THREADS }],
  [
    'xa',
    {
      ignored: 'XA is not implemented: the factory is bound as a non-XA HornetQConnectionFactory',
      warnWhen: (value) => value === true,
    },
  ],
]);

function tableElements(): Array<[string, FactoryElement]> {
  return Object.entries(CONNECTION_FACTORY_SETTINGS).flatMap(
    ([name, setting]): Array<[string, FactoryElement]> =>
      setting.element === null
        ? []
        : [
            [
              setting.element,
              { name: name as keyof ConnectionFactorySettings, setting, ...NOTES.get(setting.element) },
            ],
          ],
  );
}

/** hornetq-jms.xml's value elements of `<connection-factory>` (HornetQ 2.4's, and ours), by element. */
export const FACTORY_SETTINGS: ReadonlyMap<string, FactoryElement> = new Map<string, FactoryElement>([
  ...tableElements(),
  ...[...ELEMENTS_WITHOUT_SETTING].map(([element, setting]): [string, FactoryElement] => [
    element,
    { name: null, setting, ...NOTES.get(element) },
  ]),
]);

/**
 * Applies a definition's settings (by element, each already checked against the table) to a
 * factory, as its setters would; `ha` is the factory's constructor argument and is left out.
 */
export function applyFactorySettings(
  factory: HornetQConnectionFactory,
  settings: ReadonlyMap<string, Value>,
): HornetQConnectionFactory {
  const named: Record<string, Value> = {};
  for (const [element, value] of settings) {
    const known = FACTORY_SETTINGS.get(element);
    if (known !== undefined && known.name !== null && known.setting.setter !== null)
      named[known.name] = value;
  }
  return factory.applySettings(named as Partial<Omit<ConnectionFactorySettings, 'ha'>>);
}
