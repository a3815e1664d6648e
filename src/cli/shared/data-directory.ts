import path from 'node:path';
import { CliError } from './cli-error';

/** The placeholder HornetQ's own configuration files put their directories under: `${data.dir:../data}/journal`. */
export const DATA_DIR_PLACEHOLDER = 'data.dir';

/**
 * --data-dir: relative persistence directories resolve against it, and it is the value of
 * `${data.dir}` (unless the environment sets one), as HornetQ's start script sets -Ddata.dir.
 */
export function dataDirectoryOf(dataDir: string | undefined): {
  dataDirectory?: string;
  dataDirPlaceholder: Record<string, string>;
} {
  if (dataDir === undefined) return { dataDirPlaceholder: {} };
  if (dataDir.trim() === '') throw new CliError('--data-dir must name a directory (it is empty)', 1);
  const dataDirectory = path.resolve(dataDir);
  return { dataDirectory, dataDirPlaceholder: { [DATA_DIR_PLACEHOLDER]: dataDirectory } };
}
