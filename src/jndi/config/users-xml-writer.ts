import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UserAccount, UserAccounts } from '../../server/security/file-security-manager';
import { escapeXml } from '../xml/entities';
import { HORNETQ_NAMESPACE } from './config-document';

/** A new users file: its owner may read and write it, nobody else anything. */
export const USERS_FILE_MODE = 0o600;

/** hornetq-users.xml for these users, in HornetQ's layout (comments of an earlier file are not kept). */
export function formatUsersFile(accounts: UserAccounts): string {
  const lines = [
    `<configuration xmlns="${HORNETQ_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    '               xsi:schemaLocation="urn:hornetq /schema/hornetq-users.xsd">',
    '   <!-- Written by `hornetq user`. Passwords: scrypt:N=<n>,r=<r>,p=<p>:<salt base64>:<key base64>, or plain text. -->',
  ];
  if (accounts.defaultUser !== null) {
    lines.push('   <!-- the default user: who a client that gives no user name is -->');
    lines.push(...formatUser('defaultuser', accounts.defaultUser));
  }
  for (const user of accounts.users) lines.push(...formatUser('user', user));
  lines.push('</configuration>', '');
  return lines.join('\n');
}

function formatUser(element: 'defaultuser' | 'user', user: UserAccount): string[] {
  return [
    `   <${element} name="${escapeXml(user.name)}" password="${escapeXml(user.password)}">`,
    ...user.roles.map((role) => `      <role name="${escapeXml(role)}"/>`),
    `   </${element}>`,
  ];
}

/** The mode a users file is written with, and the one it had before (null: it is new). */
export interface UsersFileMode {
  mode: number;
  previous: number | null;
}

/**
 * Replaces `file` atomically: the new text goes to a temporary file beside it, flushed to disk,
 * then renamed over it, so that a broker reading it (or a crash) never sees half a file. It holds
 * password hashes (or HornetQ's plain-text passwords), so a new file is readable by its owner only
 * (0600), and an existing one loses what it gave every other account of the machine: its owner's
 * and group's bits stay (a broker may run as another user of its group), the others' go.
 */
export async function writeUsersFile(file: string, accounts: UserAccounts): Promise<UsersFileMode> {
  const previous = await fs.stat(file).then(
    (stat) => stat.mode & 0o777,
    () => null,
  );
  const mode = previous === null ? USERS_FILE_MODE : previous & 0o770;
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await fs.open(temporary, 'wx', mode);
  try {
    try {
      await handle.chmod(mode); // the umask may have narrowed what open() was asked for
      await handle.writeFile(formatUsersFile(accounts), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return { mode, previous };
}
