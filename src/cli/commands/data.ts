import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { silentLogger } from '../../core/remoting/logger';
import { loadServerConfiguration } from '../../jndi';
import { JMS_CONFIG_NAME, SERVER_CONFIG_NAME } from '../../jndi/config-files';
import { DataDirectoryLockedError } from '../../server/lock/data-directory-locked-error';
import { FileLock } from '../../server/lock/file-lock';
import { SERVER_LOCK_FILE, ServerLockFile } from '../../server/lock/server-lock-file';
import { DEFAULT_BROKER_CONFIGURATION, resolvedPersistence } from '../../server/broker-configuration';
import { describeFinding, type DamageFinding } from '../../server/storage/damage/damage-kind';
import { createJournalStorage } from '../../server/storage/create-journal-storage';
import { JournalCorruptionError } from '../../server/storage/journal/journal-corruption-error';
import { StorageError } from '../../server/storage/storage-error';
import { NodeFileSystem } from '../../server/storage/journal/node-file-system';
import type { StorageCheckReport } from '../../server/storage/journal-storage-manager';
import { CliError } from '../shared/cli-error';
import { dataDirectoryOf } from '../shared/data-directory';
import { announceConfig, checkConfigDir, locateConfig } from '../shared/config-location';
import { configOption } from '../shared/registry';

/** Exit code of `data check` when it found damage (1 stays for mistakes: a bad option, no such folder). */
export const DAMAGE_EXIT_CODE = 2;

interface DataCheckOptions {
  config?: string;
  dataDir?: string;
}

/** `hornetq data`: look at a stopped broker's files (Artemis' `artemis data` tools). */
export function dataCommand(): Command {
  const check = new Command('check')
    .description(
      "read a stopped broker's journals and large-message files as a start would and report every problem (file, offset, kind, messages lost if accepted), changing nothing; exit code 2 when damage is found",
    )
    .addOption(configOption())
    .addOption(
      new Option(
        '--data-dir <dir>',
        'the data directory the broker runs with (hornetq server --data-dir); the working directory by default',
      ),
    )
    .action(async (options: DataCheckOptions) => dataCheck(options));
  return new Command('data').addCommand(check);
}

async function dataCheck(options: DataCheckOptions): Promise<void> {
  const location = locateConfig(options.config, [JMS_CONFIG_NAME]);
  const configDir = checkConfigDir(location, [JMS_CONFIG_NAME]);
  announceConfig(location);
  const serverFile = path.join(configDir, SERVER_CONFIG_NAME);
  const { dataDirectory, dataDirPlaceholder } = dataDirectoryOf(options.dataDir);
  const env = { ...dataDirPlaceholder, ...process.env };
  const server = existsSync(serverFile) ? await loadServerConfiguration(serverFile, { env }) : null;
  if (server?.persistenceEnabled === false)
    throw new CliError(`${serverFile} says persistence-enabled false: the broker keeps no files to check`);
  const persistence = resolvedPersistence({
    ...DEFAULT_BROKER_CONFIGURATION,
    ...server?.persistence,
    dataDirectory: dataDirectory ?? DEFAULT_BROKER_CONFIGURATION.dataDirectory,
  });
  const storage = createJournalStorage(persistence, new NodeFileSystem(), silentLogger, {
    persistIdCache: true,
  });
  const lock = await lockIfBrokerRanThere(persistence.journalDirectory);
  let report: StorageCheckReport;
  try {
    report = await storage.check();
  } catch (error) {
    // A file whose header does not read back, or a directory that cannot be read: damage too.
    if (JournalCorruptionError.is(error) || StorageError.is(error))
      throw new CliError(`cannot read the broker's files: ${error.message}`, DAMAGE_EXIT_CODE, {
        cause: error,
      });
    throw error;
  } finally {
    await lock?.release();
  }
  printReport(report);
}

/**
 * The files of a running broker change under a check, which would report its writes in flight
 * as damage: the check takes the directory's lock (writing nothing in server.lock) and holds it
 * while it reads, so that no broker starts meanwhile; one running is refused, named.
 */
async function lockIfBrokerRanThere(journalDirectory: string): Promise<FileLock | null> {
  const file = path.join(journalDirectory, SERVER_LOCK_FILE);
  if (!existsSync(file)) return null;
  const lock = await FileLock.open(file);
  if (await lock.tryLock()) return lock;
  const holder = await new ServerLockFile(lock.fileHandle).readHolder().catch(() => null);
  await lock.release();
  throw new DataDirectoryLockedError(journalDirectory, holder);
}

function printReport(report: StorageCheckReport): void {
  console.log(`checked ${report.location}`);
  console.log(
    `${report.queues} queue(s), ${report.messages} message(s), ${report.references} reference(s) to them in known queues`,
  );
  if (report.findings.length === 0) {
    console.log('no damage found');
    return;
  }
  console.log(`${report.findings.length} problem(s) found:`);
  for (const finding of report.findings) console.log(`  ${describeFinding(finding)}`);
  const kinds = [...new Set(report.findings.map((finding: DamageFinding) => finding.kind))];
  console.log(
    'a start refuses these: put the files back, or start with ' +
      `--accept-damage ${kinds.join(',')} to lose what they hold (logged with counts)`,
  );
  // The report is printed already: no error to throw, whose message would repeat it.
  process.exitCode = DAMAGE_EXIT_CODE;
}
