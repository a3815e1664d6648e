import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { defaultConfigDir, JMS_CONFIG_NAME, SERVER_CONFIG_NAME } from '../../jndi/config-files';
import { USERS_CONFIG_NAME } from '../../jndi/config/users-xml-reader';
import { USERS_FILE_MODE } from '../../jndi/config/users-xml-writer';
import { CliError } from '../shared/cli-error';
import { CONFIG_ENV, LOCAL_CONFIG_DIR } from '../shared/config-location';

const FILES = [SERVER_CONFIG_NAME, JMS_CONFIG_NAME, USERS_CONFIG_NAME] as const;

interface InitOptions {
  force?: boolean;
}

/**
 * `hornetq config init [DIR]`: a copy of the shipped configuration for an application to edit.
 * The package's own config/ sits in node_modules, where a reinstall would undo every edit.
 */
export function configInitCommand(): Command {
  return new Command('init')
    .description(`copy the package's ${FILES.join(', ')} into DIR, to edit and run with --config DIR`)
    .argument('[dir]', 'where to write them (./config is where every command looks)', LOCAL_CONFIG_DIR)
    .option('--force', 'overwrite files that are already there')
    .action(async (dir: string, options: InitOptions) => configInit(dir, options.force === true));
}

async function configInit(dirOption: string, force: boolean): Promise<void> {
  const source = defaultConfigDir();
  const target = path.resolve(dirOption);
  if (target === path.resolve(source))
    throw new CliError(`${target} is the package's own config/: name another folder`);
  if (!force) {
    const present = await existing(FILES.map((file) => path.join(target, file)));
    if (present.length > 0) {
      throw new CliError(
        `${present.join(', ')} already ${present.length === 1 ? 'exists' : 'exist'} (--force overwrites)`,
      );
    }
  }
  await fs.mkdir(target, { recursive: true });
  for (const file of FILES) await fs.copyFile(path.join(source, file), path.join(target, file));
  // The package's copy is readable by all (npm installs it so); this one gets passwords added.
  await fs.chmod(path.join(target, USERS_CONFIG_NAME), USERS_FILE_MODE);
  console.log(`wrote ${FILES.join(', ')} to ${target}`);
  // Run from the folder holding ./config, every command finds it; from elsewhere it must be named.
  console.log(
    target === path.resolve(LOCAL_CONFIG_DIR)
      ? 'next: hornetq config check && hornetq server (every command run here reads ./config)'
      : `next: hornetq config check ${dirOption} && hornetq server --config ${dirOption} (or set ${CONFIG_ENV}=${target})`,
  );
  // The shipped users file is for trying things out; say so where the copy is made.
  process.stderr.write(
    `warning: ${path.join(target, USERS_CONFIG_NAME)} has the demo user (password demo, every permission): ` +
      'replace it (hornetq user add NAME --role ROLE --config DIR; hornetq user remove demo --config DIR) before others can reach the broker\n',
  );
}

async function existing(files: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    if (
      await fs.stat(file).then(
        () => true,
        () => false,
      )
    )
      found.push(file);
  }
  return found;
}
