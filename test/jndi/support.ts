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

/** Polls until `check` returns true, failing with `what` after the deadline. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const JMS_HEAD = '<configuration xmlns="urn:hornetq">';
