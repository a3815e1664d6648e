import type { DamageKind } from '../../../src/server/storage/damage/damage-kind';
import {
  DEFAULT_PERSISTENCE_CONFIGURATION,
  persistenceConfigurationProblems,
  resolvePersistenceConfiguration,
} from '../../../src/server/storage/persistence-configuration';

describe('PersistenceConfiguration', () => {
  it("has HornetQ's defaults, frozen", () => {
    expect(DEFAULT_PERSISTENCE_CONFIGURATION).toEqual({
      journalDirectory: 'data/journal',
      bindingsDirectory: 'data/bindings',
      largeMessagesDirectory: 'data/largemessages',
      pagingDirectory: 'data/paging',
      createJournalDir: true,
      createBindingsDir: true,
      journalFileSize: 10_485_760,
      journalMinFiles: 2,
      journalCompactMinFiles: 10,
      journalCompactPercentage: 30,
      journalSyncTransactional: true,
      journalSyncNonTransactional: true,
      journalBufferTimeout: 3_333_333,
      journalBufferSize: 501_760,
      skipCorruptRecords: false,
      acceptDamage: [],
    });
    expect(Object.isFrozen(DEFAULT_PERSISTENCE_CONFIGURATION)).toBe(true);
    expect(persistenceConfigurationProblems(DEFAULT_PERSISTENCE_CONFIGURATION)).toEqual([]);
  });

  it('merges settings over the defaults', () => {
    const resolved = resolvePersistenceConfiguration({
      journalDirectory: '/var/hq/journal',
      journalMinFiles: 4,
    });
    expect(resolved).toEqual({
      ...DEFAULT_PERSISTENCE_CONFIGURATION,
      journalDirectory: '/var/hq/journal',
      journalMinFiles: 4,
    });
  });

  it('accepts only known damage kinds in acceptDamage, naming them', () => {
    expect(
      persistenceConfigurationProblems({
        ...DEFAULT_PERSISTENCE_CONFIGURATION,
        acceptDamage: ['large-message-file'],
      }),
    ).toEqual([]);
    expect(
      persistenceConfigurationProblems({
        ...DEFAULT_PERSISTENCE_CONFIGURATION,
        acceptDamage: ['everything'] as unknown as DamageKind[],
      }),
    ).toEqual([
      'acceptDamage (accept-damage) must list damage kinds among corrupt-record, damaged-tail, missing-journal-file, large-message-file, missing-message-journal, unknown-queue (actual value: ["everything"])',
    ]);
  });

  it('names the setting, its element, the value and the allowed range of each problem', () => {
    expect(() =>
      resolvePersistenceConfiguration({
        journalFileSize: 512,
        journalMinFiles: 1,
        journalCompactPercentage: 101,
        journalBufferTimeout: -1,
        journalBufferSize: 1.5,
        bindingsDirectory: ' ',
        journalSyncTransactional: 'yes' as unknown as boolean,
      }),
    ).toThrow(
      'invalid persistence configuration: ' +
        [
          'bindingsDirectory (bindings-directory) must be a directory path (actual value: " ")',
          'journalSyncTransactional (journal-sync-transactional) must be true or false (actual value: yes)',
          'journalFileSize (journal-file-size) must be an integer in 1024..2147483647 bytes (actual value: 512)',
          'journalMinFiles (journal-min-files) must be an integer in 2..10000 (actual value: 1)',
          'journalCompactPercentage (journal-compact-percentage) must be an integer in 0..100 (actual value: 101)',
          'journalBufferTimeout (journal-buffer-timeout) must be an integer in 0..1000000000 ns (actual value: -1)',
          'journalBufferSize (journal-buffer-size) must be an integer in 4096..2147483647 bytes (actual value: 1.5)',
        ].join('; '),
    );
  });
});
