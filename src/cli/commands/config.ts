import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import {
  brokerConfigurationOf,
  ConfigurationException,
  formatProblem,
  loadJmsConfiguration,
  type ConfigurationProblem,
  type ServerConfiguration,
} from '../../jndi';
import { JMS_CONFIG_NAME, SERVER_CONFIG_NAME } from '../../jndi/config-files';
import { readConfigFile } from '../../jndi/config/config-document';
import { checkServerConfiguration } from '../../jndi/config/server-config-parser';
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
    .argument(
      '[dir]',
      "the configuration folder (default: $HORNETQ_CONFIG, else ./config when it holds the files, else the package's config/)",
    )
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

/**
 * Each file as the broker would read it, all of them whatever the others hold: the JMS file is
 * checked against what could be read of the server file, its references to the server file's
 * broken connectors left to that file's errors.
 */
async function checkFolder(dir: string): Promise<FileCheck[]> {
  const serverFile = path.join(dir, SERVER_CONFIG_NAME);
  const usersFile = path.join(dir, USERS_CONFIG_NAME);
  const server = existsSync(serverFile) ? await checkServerFile(serverFile) : null;
  const checks: FileCheck[] = server === null ? [] : [server.check];
  checks.push(await checkJmsFile(path.join(dir, JMS_CONFIG_NAME), server, dir));
  if (existsSync(usersFile))
    checks.push((await attempt(usersFile, () => loadUsersConfiguration(usersFile))).check);
  return checks;
}

/** hornetq-configuration.xml read to its end despite its errors. */
interface ServerFileCheck {
  check: FileCheck;
  /** What could be read (null: nothing could), for the JMS file's references. */
  config: ServerConfiguration | null;
  connectorsInError: ReadonlySet<string> | 'all';
}

async function checkServerFile(file: string): Promise<ServerFileCheck> {
  try {
    const result = checkServerConfiguration(await readConfigFile(file), file);
    return {
      check: { file, errors: result.errors, warnings: result.warnings },
      config: result.config,
      connectorsInError: result.config === null ? 'all' : result.connectorsInError,
    };
  } catch (error) {
    if (!ConfigurationException.is(error)) throw error;
    return { check: { file, errors: error.problems, warnings: [] }, config: null, connectorsInError: 'all' };
  }
}

/** hornetq-jms.xml, then what the broker checks across both files (JMS names against the server's limits). */
async function checkJmsFile(file: string, server: ServerFileCheck | null, dir: string): Promise<FileCheck> {
  const options =
    server === null ? {} : { server: server.config, connectorsInError: server.connectorsInError };
  const jms = await attempt(file, () => loadJmsConfiguration(file, options));
  // Without a server file the broker uses HornetQ's defaults; with one that cannot be read, nothing is known.
  if (jms.value === null || (server !== null && server.config === null)) return jms.check;
  const value = jms.value;
  const across = await attempt(file, async () => ({
    broker: brokerConfigurationOf(
      server?.config ?? null,
      value,
      { storage: null, dataDirectory: dir },
      warningLogger,
    ),
    warnings: [],
  }));
  return { ...jms.check, errors: across.check.errors };
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
