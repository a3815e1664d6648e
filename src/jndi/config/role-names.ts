import type { Problems, ProblemSite } from '../problems';

/**
 * HornetQ reads a permission's `roles` by splitting on commas and trimming each part, so
 * `roles="admin demo"` is one role named "admin demo" that no user has: everyone is locked out
 * and nothing says why. A role name with a blank or a comma inside can only be that mistake.
 */
const BLANK_OR_COMMA = /[\s,]/;

/** The roles a name with blanks or commas inside stands for; null when it is one role's name. */
export function rolesMeantBy(name: string): string[] | null {
  if (!BLANK_OR_COMMA.test(name.trim())) return null;
  return name.split(/[\s,]+/).filter((part) => part !== '');
}

/**
 * The roles of a `<permission roles="...">`: comma-separated, trimmed, each once, as HornetQ reads
 * them. A role with a blank inside is an error that says how to write the list.
 */
export function readRoleList(site: ProblemSite, roles: string, problems: Problems): string[] {
  const list: string[] = [];
  for (const role of roles.split(',').map((part) => part.trim())) {
    if (role !== '' && !list.includes(role)) list.push(role);
  }
  if (list.some((role) => rolesMeantBy(role) !== null)) {
    const meant = rolesMeantBy(roles) ?? list;
    problems.error(
      site,
      `roles="${roles}": roles are separated by commas: did you mean roles="${meant.join(', ')}"?`,
    );
  }
  return list;
}

/**
 * The name of a hornetq-users.xml `<role name="...">`: one role per element, so a blank or comma
 * inside is several roles written as one, which no permission could name.
 */
export function checkUserRoleName(site: ProblemSite, role: string, problems: Problems): void {
  const meant = rolesMeantBy(role);
  if (meant === null) return;
  problems.error(
    site,
    `name="${role}": a user's roles are one <role> element each: did you mean ${meant.map((name) => `<role name="${name}"/>`).join(' ')}?`,
  );
}
