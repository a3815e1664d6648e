import { MAX_PAGE_SIZE_BYTES, type AddressSettings } from '../../server/postoffice/address-settings';
import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { checkShape } from './element-shape';
import { isUsableMatch } from './match-attribute';
import {
  GE_ZERO,
  GT_ZERO,
  MINUS_ONE_OR_GE_ZERO,
  both,
  readValue,
  type RangeCheck,
  type Value,
  type ValueSpec,
} from './values';

type Setting = { spec: ValueSpec; field: keyof AddressSettings } | { spec: ValueSpec; ignored: string };

/** A page is one Buffer in memory (and an int in HornetQ's PagingStoreImpl). */
const PAGE_SIZE: RangeCheck = both(GT_ZERO, (v) =>
  v <= MAX_PAGE_SIZE_BYTES ? null : `must be at most ${MAX_PAGE_SIZE_BYTES} (actual value: ${v})`,
);

/** The children of `<address-setting>` (xsd:all) and the broker setting each one sets. */
const SETTINGS = new Map<string, Setting>([
  ['dead-letter-address', { spec: { kind: 'non-empty-string' }, field: 'deadLetterAddress' }],
  ['expiry-address', { spec: { kind: 'non-empty-string' }, field: 'expiryAddress' }],
  ['expiry-delay', { spec: { kind: 'long', check: MINUS_ONE_OR_GE_ZERO }, field: 'expiryDelay' }],
  ['redelivery-delay', { spec: { kind: 'long', check: GE_ZERO }, field: 'redeliveryDelay' }],
  [
    'redelivery-delay-multiplier',
    { spec: { kind: 'double', check: GT_ZERO }, field: 'redeliveryDelayMultiplier' },
  ],
  ['max-redelivery-delay', { spec: { kind: 'long', check: GE_ZERO }, field: 'maxRedeliveryDelay' }],
  [
    'max-delivery-attempts',
    { spec: { kind: 'int', check: MINUS_ONE_OR_GE_ZERO }, field: 'maxDeliveryAttempts' },
  ],
  ['max-size-bytes', { spec: { kind: 'long', check: MINUS_ONE_OR_GE_ZERO }, field: 'maxSizeBytes' }],
  [
    'max-size-bytes-reject-threshold',
    { spec: { kind: 'long', check: MINUS_ONE_OR_GE_ZERO }, field: 'maxSizeBytesRejectThreshold' },
  ],
  ['address-full-policy', { spec: { kind: ['PAGE', 'DROP', 'BLOCK', 'FAIL'] }, field: 'addressFullPolicy' }],
  ['last-value-queue', { spec: { kind: 'boolean' }, field: 'lastValueQueue' }],
  ['send-to-dla-on-no-route', { spec: { kind: 'boolean' }, field: 'sendToDlaOnNoRoute' }],
  ['page-size-bytes', { spec: { kind: 'long', check: PAGE_SIZE }, field: 'pageSizeBytes' }],
  ['page-max-cache-size', { spec: { kind: 'int', check: GT_ZERO }, field: 'pageMaxCacheSize' }],
  [
    'message-counter-history-day-limit',
    { spec: { kind: 'int', check: GE_ZERO }, ignored: 'message counters are not implemented; ignored' },
  ],
  [
    'redistribution-delay',
    {
      spec: { kind: 'long', check: MINUS_ONE_OR_GE_ZERO },
      ignored: 'clustering is not implemented; ignored',
    },
  ],
]);

const SHAPE = {
  required: ['match'],
  children: new Map([...SETTINGS.keys()].map((name) => [name, 'one' as const])),
};

/** Reads `<address-settings>`: each match (once) and the settings it gives. */
export function readAddressSettings(
  section: XmlElement,
  problems: Problems,
): Map<string, Partial<AddressSettings>> {
  const result = new Map<string, Partial<AddressSettings>>();
  const lines = new Map<string, number>();
  const children = checkShape(section, { children: new Map([['address-setting', 'many']]) }, problems);
  for (const element of children.get('address-setting') ?? []) {
    const match = element.attributes.get('match');
    const settings = readOne(element, problems);
    if (match === undefined || match.trim() === '' || !isUsableMatch(element, match, problems)) continue;
    const previous = lines.get(match);
    if (previous !== undefined) {
      problems.error(element, `match '${match}' is already set at line ${previous}`);
      continue;
    }
    lines.set(match, element.line);
    result.set(match, settings);
  }
  return result;
}

function readOne(element: XmlElement, problems: Problems): Partial<AddressSettings> {
  const settings: Record<string, Value> = Object.create(null) as Record<string, Value>;
  const children = checkShape(element, SHAPE, problems);
  for (const [name, [child]] of children) {
    const setting = SETTINGS.get(name);
    if (setting === undefined || child === undefined) continue;
    const value = readValue(child, setting.spec, problems);
    if (value === undefined) continue;
    if ('field' in setting) settings[setting.field] = value;
    else problems.warn(child, setting.ignored);
  }
  return { ...settings } as Partial<AddressSettings>;
}
