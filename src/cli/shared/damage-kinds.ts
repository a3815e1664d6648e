import { InvalidArgumentError, Option } from 'commander';
import { DAMAGE_KIND_NAMES, isDamageKind, type DamageKind } from '../../server/storage/damage/damage-kind';

/** `--accept-damage a,b`: the damage kinds a start accepts, each checked against the known ones. */
export function acceptDamageOption(): Option {
  return new Option(
    '--accept-damage <kinds>',
    `start on damaged data, losing what the named kinds of damage hold (logged with counts); comma-separated, among ${DAMAGE_KIND_NAMES.join(', ')} (see hornetq data check)`,
  ).argParser(damageKinds);
}

function damageKinds(value: string): DamageKind[] {
  const kinds = value.split(',').map((kind) => kind.trim());
  const unknown = kinds.filter((kind) => !isDamageKind(kind));
  if (unknown.length > 0 || kinds.length === 0)
    throw new InvalidArgumentError(
      `unknown damage kind ${unknown.map((kind) => `'${kind}'`).join(', ')}: the kinds are ${DAMAGE_KIND_NAMES.join(', ')}`,
    );
  return kinds as DamageKind[];
}
