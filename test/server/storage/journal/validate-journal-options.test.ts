import { FileJournal } from '../../../../src/server/storage/journal/file-journal';
import { MemoryFileSystem } from '../../../support/memory-file-system';
import { journalOptions } from './journal-test-kit';

describe('journal settings', () => {
  test.each([
    [{ fileSize: 512 }, /journal-file-size \(fileSize\) must be an integer in 1024\.\.2147483648, got 512/],
    [{ minFiles: 1 }, /journal-min-files \(minFiles\) must be an integer in 2\.\.10000, got 1/],
    [
      { compactMinFiles: -1 },
      /journal-compact-min-files \(compactMinFiles\) must be an integer in 0\.\.1000000, got -1/,
    ],
    [
      { compactPercentage: 101 },
      /journal-compact-percentage \(compactPercentage\) must be an integer in 0\.\.100, got 101/,
    ],
    [
      { bufferTimeoutNs: 1.5 },
      /journal-buffer-timeout \(bufferTimeoutNs\) must be an integer in 0\.\.1000000000, got 1\.5/,
    ],
    [{ bufferSize: 10 }, /journal-buffer-size \(bufferSize\) must be an integer in 85\.\.2147483648, got 10/],
    [
      { filePrefix: '../escape' },
      /journal filePrefix must be letters, digits, '_', '-' or '\.', got "\.\.\/escape"/,
    ],
  ])('%j is refused, naming setting, value and range', (override, message) => {
    expect(() => new FileJournal(journalOptions(new MemoryFileSystem(), override))).toThrow(message);
  });

  test('the defaults of HornetQ are accepted', () => {
    const options = journalOptions(new MemoryFileSystem(), {
      fileSize: 10 * 1024 * 1024,
      minFiles: 2,
      compactMinFiles: 10,
      compactPercentage: 30,
      bufferTimeoutNs: 3_333_333,
      bufferSize: 490 * 1024,
    });
    expect(() => new FileJournal(options)).not.toThrow();
  });

  test('appends before load are refused', () => {
    const journal = new FileJournal(journalOptions(new MemoryFileSystem()));
    expect(() => journal.appendAdd(1, 1, Buffer.alloc(1), true)).toThrow(
      /journal is new: appends need a loaded, open journal/,
    );
  });
});
