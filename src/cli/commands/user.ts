import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { formatProblem } from '../../jndi/configuration-exception';
import { readConfigFile } from '../../jndi/config/config-document';
import { rolesMeantBy } from '../../jndi/config/role-names';
import type { UserDefinition, UsersConfiguration } from '../../jndi/config/users-configuration';
import { parseUsersConfiguration, USERS_CONFIG_NAME } from '../../jndi/config/users-xml-reader';
import { writeUsersFile, type UsersFileMode } from '../../jndi/config/users-xml-writer';
import type { UserAccount, UserAccounts } from '../../server/security/file-security-manager';
import { hashPassword } from '../../server/security/password-hash';
import { CliError } from '../shared/cli-error';
import { announceConfig, checkConfigDir, CONFIG_ENV, locateConfig } from '../shared/config-location';
import { table } from '../shared/output';

/** Where a password may come from instead of the command line, which other users can see. */
export const PASSWORD_VARIABLE = 'HORNETQ_PASSWORD';

interface UserOptions {
  config?: string;
}

interface AddOptions extends UserOptions {
  role: string[];
  password?: string;
}

export function userCommand(): Command {
  const add = new Command('add')
    .description(`add a user to ${USERS_CONFIG_NAME}, its password stored as an scrypt hash`)
    .argument('<name>', 'the user name')
    .addOption(
      new Option('--role <role>', 'a role of the user (repeat for several)').argParser(collect).default([]),
    )
    .addOption(
      new Option('--password <password>', `the password (better: the ${PASSWORD_VARIABLE} variable)`),
    )
    .addOption(usersConfigOption())
    .action(async (name: string, options: AddOptions) => addUser(name, options));
  const remove = new Command('remove')
    .description(`remove a user (or the default user) from ${USERS_CONFIG_NAME}`)
    .argument('<name>', 'the user name')
    .addOption(usersConfigOption())
    .action(async (name: string, options: UserOptions) => removeUser(name, options));
  const list = new Command('list')
    .description(`the users of ${USERS_CONFIG_NAME} and their roles (never their passwords)`)
    .addOption(usersConfigOption())
    .action(async (options: UserOptions) => listUsers(options));
  return new Command('user').addCommand(add).addCommand(remove).addCommand(list);
}

function usersConfigOption(): Option {
  return new Option(
    '--config <dir>',
    `folder with ${USERS_CONFIG_NAME} (default: $${CONFIG_ENV}, else ./config when it holds ${USERS_CONFIG_NAME}, else the package's config/)`,
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function addUser(name: string, options: AddOptions): Promise<void> {
  const file = usersFileOf(options.config);
  checkName('user name', name);
  const roles = [...new Set(options.role)];
  if (roles.length === 0) throw new CliError('a user needs at least one role: give --role ROLE');
  for (const role of roles) checkRole(role);
  const password = passwordOf(options);
  const accounts = await readUsers(file);
  if (findUser(accounts, name) !== null) {
    throw new CliError(
      `user '${name}' already exists in ${file} (remove it first to change its password or roles)`,
    );
  }
  const user: UserAccount = { name, password: await hashPassword(password), roles };
  reportNarrowed(
    file,
    await writeUsersFile(file, { defaultUser: accounts.defaultUser, users: [...accounts.users, user] }),
  );
  console.log(
    `user '${name}' added to ${file} with role${roles.length === 1 ? '' : 's'} ${roles.join(', ')}`,
  );
}

async function removeUser(name: string, options: UserOptions): Promise<void> {
  const file = usersFileOf(options.config);
  const accounts = await readUsers(file);
  const found = findUser(accounts, name);
  if (found === null) throw new CliError(`${file} has no user '${name}'`);
  const remaining: UserAccounts =
    found === accounts.defaultUser
      ? { defaultUser: null, users: accounts.users }
      : { defaultUser: accounts.defaultUser, users: accounts.users.filter((user) => user !== found) };
  reportNarrowed(file, await writeUsersFile(file, remaining));
  const what = found === accounts.defaultUser ? 'default user' : 'user';
  console.log(`${what} '${name}' removed from ${file}`);
}

async function listUsers(options: UserOptions): Promise<void> {
  const file = usersFileOf(options.config);
  const accounts = await readUsers(file);
  const rows: string[][] = accounts.users.map((user) => [user.name, user.roles.join(', ')]);
  if (accounts.defaultUser !== null) {
    const { name, roles } = accounts.defaultUser;
    rows.unshift([`${name} (default)`, roles.join(', ')]);
  }
  console.log(table(['USER', 'ROLES'], rows));
}

/** Says when the rewrite took away what the file let every account of the machine read. */
function reportNarrowed(file: string, { mode, previous }: UsersFileMode): void {
  if (previous === null || (previous & 0o007) === 0) return;
  process.stderr.write(
    `note: ${file} was readable by every user of this machine (mode ${octal(previous)}); it is ${octal(mode)} now\n`,
  );
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

/** hornetq-users.xml in the configuration folder (locateConfig's rule), which must exist (the file need not). */
function usersFileOf(option: string | undefined): string {
  const location = locateConfig(option, [USERS_CONFIG_NAME]);
  const dir = checkConfigDir(location, []);
  announceConfig(location);
  return path.join(dir, USERS_CONFIG_NAME);
}

/** The file's users (none when there is no file yet); its warnings go to stderr. */
async function readUsers(file: string): Promise<UsersConfiguration> {
  if (!existsSync(file)) return { file, defaultUser: null, users: [], warnings: [] };
  const source = await readConfigFile(file);
  // Rewriting would put the values in place of the placeholders, or lose them.
  if (source.includes('${')) {
    throw new CliError(`${file} has \${...} placeholders, which rewriting it would lose: edit it by hand`);
  }
  const accounts = parseUsersConfiguration(source, file, { env: {} });
  for (const warning of accounts.warnings) process.stderr.write(`warning: ${formatProblem(warning)}\n`);
  return accounts;
}

function findUser(accounts: UsersConfiguration, name: string): UserDefinition | null {
  if (accounts.defaultUser?.name === name) return accounts.defaultUser;
  return accounts.users.find((user) => user.name === name) ?? null;
}

/** From --password, else HORNETQ_PASSWORD: never asked for, so that scripts cannot hang. */
function passwordOf(options: AddOptions): string {
  const password = options.password ?? process.env[PASSWORD_VARIABLE];
  if (password === undefined) {
    throw new CliError(`no password: give --password PASSWORD or set ${PASSWORD_VARIABLE}`);
  }
  if (password === '') throw new CliError('the password is empty');
  return password;
}

/** One role per --role: a list in one would be a single role that no permission names. */
function checkRole(role: string): void {
  checkName('role', role);
  const meant = rolesMeantBy(role);
  if (meant !== null) {
    throw new CliError(
      `the role ${JSON.stringify(role)} has a blank or comma inside: give each role its own --role (${meant.map((name) => `--role ${name}`).join(' ')})`,
    );
  }
}

/** Names are written into XML attributes and matched exactly: no blanks around, no control characters. */
function checkName(what: string, value: string): void {
  // eslint-disable-next-line no-control-regex
  if (value.trim() !== value || value === '' || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new CliError(
      `the ${what} ${JSON.stringify(value)} must be non-empty, without blanks around it or control characters`,
    );
  }
}
