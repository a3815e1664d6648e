import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UserAccount, UserAccounts } from '../../server/security/file-security-manager';
import { escapeXml } from '../xml/entities';
import { HORNETQ_NAMESPACE } from './config-document';

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

/**
 * Replaces `file` atomically: the new text goes to a temporary file beside it, flushed to disk,
 * then renamed over it, so that a broker reading it (or a crash) never sees half a file. A new
 * file is readable by its owner only, since it holds password hashes; an existing one keeps its mode.
 */
export async function writeUsersFile(file: string, accounts: UserAccounts): Promise<void> {
  const mode = await fs.stat(file).then(
    (stat) => stat.mode & 0o777,
    () => 0o600,
  );
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
}
