import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** One file of the console page, held in memory. */
export interface StaticFile {
  readonly type: string;
  readonly bytes: Buffer;
}

/**
 * The console page's files by URL path: a fixed list, so that no part of a URL ever becomes part
 * of a file path (no traversal to guard against), read once at start (they are a few KiB).
 */
const PAGE_FILES: ReadonlyMap<string, { file: string; type: string }> = new Map([
  ['/', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['/console.css', { file: 'console.css', type: 'text/css; charset=utf-8' }],
  ['/console.mjs', { file: 'console.mjs', type: 'text/javascript; charset=utf-8' }],
]);

/**
 * The package's console/ folder: two levels above this file's folder, which is src/server/console
 * in the sources and dist/server/console once built (package.json ships console/ beside dist/).
 */
export const CONSOLE_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'console');

/** Reads the page's files; fails naming the file that is missing. */
export async function loadPageFiles(directory: string = CONSOLE_DIRECTORY): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  for (const [urlPath, { file, type }] of PAGE_FILES) {
    const location = path.join(directory, file);
    try {
      files.set(urlPath, { type, bytes: await readFile(location) });
    } catch (error) {
      throw new Error(`the console page's file ${location} cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return files;
}
