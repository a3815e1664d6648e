import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../src';

export interface CapturingLogger extends Logger {
  warnings: string[];
  errors: string[];
  infos: string[];
}

/** Records what the loaders say, so tests can wait for and check warnings and redeploy errors. */
export function captureLogger(): CapturingLogger {
  const logger: CapturingLogger = {
    warnings: [],
    errors: [],
    infos: [],
    debug: () => undefined,
    info: (_object, message) => void logger.infos.push(message ?? ''),
    warn: (_object, message) => void logger.warnings.push(message ?? ''),
    error: (_object, message) => void logger.errors.push(message ?? ''),
    child: () => logger,
  };
  return logger;
}

/** A fresh folder for config files; removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-jndi-'));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

export { waitFor } from '../support/wait';

export const JMS_HEAD = '<configuration xmlns="urn:hornetq">';
