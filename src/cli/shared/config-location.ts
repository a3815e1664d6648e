import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultConfigDir } from '../../jndi/config-files';
import { CliError } from './cli-error';

/** The variable naming the configuration folder when --config is not given. */
export const CONFIG_ENV = 'HORNETQ_CONFIG';

/** The folder `hornetq config init` writes by default, looked for in the working directory. */
export const LOCAL_CONFIG_DIR = 'config';

/** Why a folder was chosen, in the order the rule tries them. */
export type ConfigSource = '--config' | typeof CONFIG_ENV | './config' | 'package';

export interface ConfigLocation {
  /** Absolute. */
  readonly dir: string;
  readonly source: ConfigSource;
}

/** Where the rule looks: the process's by default, a test's own otherwise. */
export interface ConfigSearch {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/**
 * The configuration folder every command uses (the broker's included): --config, else
 * HORNETQ_CONFIG, else ./config when it holds the files the command reads (`needs`), else the
 * package's own. A ./config without them is passed over, so that an unrelated folder of that name
 * does not hide the package's.
 */
export function locateConfig(
  option: string | undefined,
  needs: readonly string[],
  search: ConfigSearch = {},
): ConfigLocation {
  const cwd = search.cwd ?? process.cwd();
  if (option !== undefined) return { dir: path.resolve(cwd, option), source: '--config' };
  const fromEnv = (search.env ?? process.env)[CONFIG_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    return { dir: path.resolve(cwd, fromEnv), source: CONFIG_ENV };
  }
  const local = path.resolve(cwd, LOCAL_CONFIG_DIR);
  if (needs.length > 0 && needs.every((file) => existsSync(path.join(local, file)))) {
    return { dir: local, source: './config' };
  }
  return { dir: defaultConfigDir(), source: 'package' };
}

/** The one line a command prints (on stderr) about the folder it read. */
export function configLocationLine(location: ConfigLocation): string {
  return `configuration: ${location.dir} (${SOURCE_WORDS[location.source]})`;
}

const SOURCE_WORDS: Readonly<Record<ConfigSource, string>> = {
  '--config': '--config',
  [CONFIG_ENV]: `from ${CONFIG_ENV}`,
  './config': 'config/ in the working directory',
  package: "the package's own: `hornetq config init` makes one to edit",
};

/**
 * Says on stderr which configuration folder a command reads, and why that one, when the user did
 * not name it (--config): the folder the rule found is the one that may surprise. Run inside the
 * package's own checkout, ./config is the package's folder: nothing surprising to say there.
 */
export function announceConfig(location: ConfigLocation): void {
  if (location.source === '--config') return;
  if (location.source === './config' && location.dir === defaultConfigDir()) return;
  process.stderr.write(`${configLocationLine(location)}\n`);
}

/**
 * The folder, checked: it must exist and hold `required` (none for a command that creates its
 * file). The message says how the folder was chosen, since a user may not have chosen it.
 */
export function checkConfigDir(location: ConfigLocation, required: readonly string[]): string {
  const { dir } = location;
  // The user named the folder (--config) or did not choose one (the package's): no need to say.
  const chosen =
    location.source === 'package' || location.source === '--config'
      ? ''
      : ` (${SOURCE_WORDS[location.source]})`;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CliError(`configuration folder ${dir}${chosen} does not exist`);
  }
  const missing = required.filter((file) => !existsSync(path.join(dir, file)));
  if (missing.length > 0) {
    throw new CliError(`configuration folder ${dir}${chosen} has no ${missing.join(', ')}`);
  }
  return dir;
}
