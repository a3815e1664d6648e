import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import {
  brokerConfigurationOf,
  ConfigurationException,
  formatProblem,
  loadJmsConfiguration,
  loadServerConfiguration,
  type ConfigurationProblem,
  type ServerConfiguration,
} from '../../jndi';
import { JMS_CONFIG_NAME, SERVER_CONFIG_NAME } from '../../jndi/config-files';
import { loadUsersConfiguration, USERS_CONFIG_NAME } from '../../jndi/config/users-xml-reader';
import { configDirOf, warningLogger } from '../shared/registry';
import { configInitCommand } from './config-init';

/** What checking one file found: its errors (none: it is fine) and its warnings. */
interface FileCheck {
  file: string;
  errors: readonly ConfigurationProblem[];
  warnings: readonly ConfigurationProblem[];
}

export function configCommand(): Command {
  const check = new Command('check')
    .description(
      `check ${SERVER_CONFIG_NAME}, ${JMS_CONFIG_NAME} and ${USERS_CONFIG_NAME} without starting a broker`,
    )
    .argument('[dir]', "the configuration folder (default: the package's config/)")
    .action(async (dir: string | undefined) => configCheck(dir));
  return new Command('config').addCommand(configInitCommand()).addCommand(check);
}

/**
 * Every problem of every file, each as `error: file:line: ...` on stderr (exit 1), or an `ok` line
 * per file on stdout; warnings go to stderr either way.
 */
async function configCheck(dirOption: string | undefined): Promise<void> {
  const dir = configDirOf(dirOption);
  const checks = await checkFolder(dir);
  for (const { warnings } of checks) {
    for (const warning of warnings) process.stderr.write(`warning: ${formatProblem(warning)}\n`);
  }
  const errors = checks.flatMap((check) => check.errors);
  if (errors.length === 0) {
    for (const { file } of checks) console.log(`ok: ${file}`);
    return;
  }
  for (const error of errors) process.stderr.write(`error: ${formatProblem(error)}\n`);
  // Every problem is printed already: no error to throw, whose --verbose stack would repeat them.
  process.exitCode = 1;
}

/** Each file as the broker would read it; the JMS file against the server file's connectors when that one is valid. */
async function checkFolder(dir: string): Promise<FileCheck[]> {
  const serverFile = path.join(dir, SERVER_CONFIG_NAME);
  const jmsFile = path.join(dir, JMS_CONFIG_NAME);
  const usersFile = path.join(dir, USERS_CONFIG_NAME);
  const checks: FileCheck[] = [];

  let server: ServerConfiguration | null = null;
  if (existsSync(serverFile)) {
    const loaded = await attempt(serverFile, () => loadServerConfiguration(serverFile));
    server = loaded.value;
    checks.push(loaded.check);
  }
  const jms = await attempt(jmsFile, () => loadJmsConfiguration(jmsFile, { server }));
  if (jms.value !== null && jms.check.errors.length === 0) {
    // What the broker checks across both files (JMS names against the server's limits).
    const value = jms.value;
    const across = await attempt(jmsFile, async () => ({
      broker: brokerConfigurationOf(server, value, { storage: null, dataDirectory: dir }, warningLogger),
      warnings: [],
    }));
    checks.push({ ...jms.check, errors: across.check.errors });
  } else {
    checks.push(jms.check);
  }
  if (existsSync(usersFile))
    checks.push((await attempt(usersFile, () => loadUsersConfiguration(usersFile))).check);
  return checks;
}

/** Runs one load; a ConfigurationException becomes the file's errors, anything else is a failure. */
async function attempt<T extends { warnings?: readonly ConfigurationProblem[] }>(
  file: string,
  load: () => Promise<T>,
): Promise<{ value: T | null; check: FileCheck }> {
  try {
    const value = await load();
    return { value, check: { file, errors: [], warnings: value.warnings ?? [] } };
  } catch (error) {
    if (!ConfigurationException.is(error)) throw error;
    return { value: null, check: { file, errors: error.problems, warnings: [] } };
  }
}
