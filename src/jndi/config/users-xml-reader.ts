import { storedPasswordProblem } from '../../server/security/password-hash';
import { ConfigurationException } from '../configuration-exception';
import { Problems } from '../problems';
import type { Environment } from '../xml/placeholders';
import type { XmlElement } from '../xml/xml-element';
import { parseConfigDocument, readConfigFile } from './config-document';
import { checkShape, first, shapeChildren, type Shape } from './element-shape';
import { checkUserRoleName } from './role-names';
import type { UserDefinition, UsersConfiguration } from './users-configuration';
import { readValue } from './values';

/** HornetQ's name for the file, looked for beside hornetq-configuration.xml. */
export const USERS_CONFIG_NAME = 'hornetq-users.xml';

export interface UsersParseOptions {
  /** Where `${name}` placeholders are looked up; process.env by default. */
  env?: Environment;
}

/** HornetQ 2.4's hornetq-users.xsd: the masking elements, then `<defaultuser>` and `<user>`s. */
const ROOT_CHILDREN = shapeChildren([
  ['mask-password', 'one'],
  ['password-codec', 'one'],
  ['defaultuser', 'one'],
  ['user', 'many'],
]);

/** `password` is checked here, not by the shape: an empty one is allowed (no password needed). */
const USER_SHAPE: Shape = {
  required: ['name'],
  optional: ['password'],
  children: shapeChildren([['role', 'many']]),
};

/** Loads hornetq-users.xml; throws ConfigurationException listing every problem, file:line each. */
export async function loadUsersConfiguration(
  file: string,
  options: UsersParseOptions = {},
): Promise<UsersConfiguration> {
  return parseUsersConfiguration(await readConfigFile(file), file, options);
}

/**
 * Parses hornetq-users.xml text; `file` names it in errors. No message quotes a password, and
 * placeholders may fill one (`password="${GUEST_PASSWORD}"`) as in HornetQ.
 */
export function parseUsersConfiguration(
  source: string,
  file: string,
  options: UsersParseOptions = {},
): UsersConfiguration {
  const problems = new Problems(file);
  const root = parseConfigDocument(source, options.env ?? process.env, problems);
  // Unless the document could not be read at all, its elements are checked too: every problem at once.
  if (root === null) throw new ConfigurationException(problems.errors);
  const rootElement = root;
  // parseConfigDocument has checked the root's attributes.
  const children = checkShape(
    rootElement,
    { optional: [...rootElement.attributes.keys()], children: ROOT_CHILDREN },
    problems,
  );
  readMasking(children, problems);
  const { defaultUser, users } = readUsers(children, problems);
  problems.throwIfAny();
  return { file, defaultUser, users, warnings: problems.warnings };
}

/** `<defaultuser>` and the `<user>`s; one name once among them all (HornetQ's xsd makes it an ID). */
function readUsers(
  children: Map<string, XmlElement[]>,
  problems: Problems,
): { defaultUser: UserDefinition | null; users: UserDefinition[] } {
  const defaultElement = first(children, 'defaultuser');
  // In document order, so that the later of two users of one name is the one reported.
  const elements = [
    ...(children.get('user') ?? []),
    ...(defaultElement === undefined ? [] : [defaultElement]),
  ];
  const read = new Map<string, UserDefinition>();
  let defaultUser: UserDefinition | null = null;
  for (const element of elements.sort((a, b) => a.line - b.line)) {
    const user = readUser(element, problems);
    if (user === null) continue;
    const previous = read.get(user.name);
    if (previous !== undefined) {
      problems.error(element, `user '${user.name}' is already defined at line ${previous.line}`);
      continue;
    }
    read.set(user.name, user);
    if (element === defaultElement) defaultUser = user;
  }
  if (defaultElement !== undefined && defaultUser !== null && defaultUser.password !== '') {
    problems.warn(
      defaultElement,
      `has a password: clients that give no user name log in as '${defaultUser.name}' only with that password (HornetQ let them in without one when it was the user's name); password="" lets them in without one`,
    );
  }
  return { defaultUser, users: [...read.values()].filter((user) => user !== defaultUser) };
}

/** HornetQ's reversible masking (a Blowfish key in its code) hides nothing: hashes replace it. */
function readMasking(children: Map<string, XmlElement[]>, problems: Problems): void {
  const mask = first(children, 'mask-password');
  const masked = mask === undefined ? false : readValue(mask, { kind: 'boolean' }, problems) === true;
  if (masked && mask !== undefined) {
    problems.error(
      mask,
      "true is not supported: HornetQ's masked passwords are reversible by anyone; store scrypt hashes instead (hornetq user add writes them)",
    );
  }
  const codec = first(children, 'password-codec');
  if (codec !== undefined && !masked) problems.warn(codec, 'is not used: mask-password is not true');
}

function readUser(element: XmlElement, problems: Problems): UserDefinition | null {
  const children = checkShape(element, USER_SHAPE, problems);
  const name = element.attributes.get('name');
  const password = element.attributes.get('password');
  // HornetQ fails on a user without one; an absent attribute must not mean "no password needed".
  if (password === undefined) {
    problems.error(element, `requires the attribute 'password' (password="" for none)`);
  } else {
    const problem = storedPasswordProblem(password);
    if (problem !== null) problems.error(element, `attribute 'password' ${problem}`);
  }
  const roles: string[] = [];
  const roleElements = children.get('role') ?? [];
  if (roleElements.length === 0) problems.error(element, 'needs at least one <role name="..."/>');
  for (const role of roleElements) {
    checkShape(role, { required: ['name'] }, problems);
    const roleName = role.attributes.get('name')?.trim();
    if (roleName === undefined || roleName === '') continue;
    checkUserRoleName(role, roleName, problems);
    if (!roles.includes(roleName)) roles.push(roleName);
  }
  if (name === undefined || name.trim() === '' || password === undefined || roles.length === 0) return null;
  if (storedPasswordProblem(password) !== null) return null;
  return { name, password, roles, line: element.line };
}
