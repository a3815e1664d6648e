import { invalidValue } from '../../../lang/argument-errors';
import type { JournalOptions } from './journal';
import { FILE_HEADER_SIZE } from './journal-file-header';
import { FRAME_OVERHEAD } from './journal-record';

/** HornetQ's smallest journal-file-size. */
export const MIN_JOURNAL_FILE_SIZE = 1024;

type NumericSetting =
  'fileSize' | 'minFiles' | 'compactMinFiles' | 'compactPercentage' | 'bufferTimeoutNs' | 'bufferSize';

const RANGES: Record<NumericSetting, { setting: string; min: number; max: number }> = {
  fileSize: { setting: 'journal-file-size', min: MIN_JOURNAL_FILE_SIZE, max: 2 ** 31 },
  minFiles: { setting: 'journal-min-files', min: 2, max: 10_000 },
  compactMinFiles: { setting: 'journal-compact-min-files', min: 0, max: 1_000_000 },
  compactPercentage: { setting: 'journal-compact-percentage', min: 0, max: 100 },
  bufferTimeoutNs: { setting: 'journal-buffer-timeout', min: 0, max: 1_000_000_000 },
  bufferSize: { setting: 'journal-buffer-size', min: FRAME_OVERHEAD + 64, max: 2 ** 31 },
};

/** Rejects a setting out of range, naming the setting, its value and the allowed range. */
export function validateJournalOptions(options: JournalOptions): void {
  for (const [field, range] of Object.entries(RANGES) as Array<
    [NumericSetting, (typeof RANGES)[NumericSetting]]
  >) {
    const value = options[field];
    if (!Number.isInteger(value) || value < range.min || value > range.max) {
      throw invalidValue(
        `${range.setting} (${field}) must be an integer in ${range.min}..${range.max}, got ${String(value)}`,
      );
    }
  }
  if (options.fileSize <= FILE_HEADER_SIZE + FRAME_OVERHEAD) {
    throw invalidValue(`journal-file-size ${options.fileSize} leaves no room for a record after the header`);
  }
  for (const field of ['filePrefix', 'fileExtension'] as const) {
    if (!/^[A-Za-z0-9_.-]+$/.test(options[field]) || options[field].startsWith('.')) {
      throw invalidValue(
        `journal ${field} must be letters, digits, '_', '-' or '.', got ${JSON.stringify(options[field])}`,
      );
    }
  }
}
