import { randomUUID } from 'node:crypto';
import { link, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { NODE_ID_BYTES, nodeIdBytes, nodeIdOf } from '../node-id';
import { decodeHolder, encodeHolder, HOLDER_MAX_BYTES, type LockHolder } from './lock-holder';

/** The file, in the journal directory, whose lock makes a broker the live one (HornetQ's name). */
export const SERVER_LOCK_FILE = 'server.lock';

/** Byte 0 of server.lock: what the live server is doing, for a backup on the same store to read. */
export const ServerLockState = {
  LIVE: 'L',
  FAILING_BACK: 'F',
  PAUSED: 'P',
  NOT_STARTED: 'N',
  FIRST_TIME_START: '0',
} as const;
export type ServerLockState = (typeof ServerLockState)[keyof typeof ServerLockState];

/**
 * HornetQ's layout: the state byte, a byte each where HornetQ takes its live and backup
 * byte-range locks (written once, never locked: our locks are whole files), then the node id's
 * 16 bytes.
 * Ours goes on after them with the holder line, which HornetQ does not read.
 */
const STATE_OFFSET = 0;
const NODE_ID_OFFSET = 3;
const HOLDER_OFFSET = NODE_ID_OFFSET + NODE_ID_BYTES;

const STATES: ReadonlySet<string> = new Set(Object.values(ServerLockState));

/**
 * What server.lock holds, read and written through the open file of its lock. Every write is
 * synced before it returns (HornetQ forces each state change): a backup that takes over after a
 * crash reads what the live last said. Reading needs no lock; writing is for the lock's holder.
 */
export class ServerLockFile {
  constructor(private readonly handle: FileHandle) {}

  /** The state byte, or null when the file has none (new) or one that is no state. */
  async readState(): Promise<ServerLockState | null> {
    const byte = await this.read(STATE_OFFSET, 1);
    const state = byte.toString('latin1');
    return STATES.has(state) ? (state as ServerLockState) : null;
  }

  async writeState(state: ServerLockState): Promise<void> {
    await this.handle.write(Buffer.from(state, 'latin1'), 0, 1, STATE_OFFSET);
    await this.handle.datasync();
  }

  /**
   * The node id as a UUID string, or null when the file holds none: shorter than the id, or all
   * zeros (a file extended by a crash before its write reached the disk; an id that a broker
   * served was synced first).
   */
  async readNodeId(): Promise<string | null> {
    const bytes = await this.read(NODE_ID_OFFSET, NODE_ID_BYTES);
    if (bytes.length < NODE_ID_BYTES || bytes.every((byte) => byte === 0)) return null;
    return nodeIdOf(bytes);
  }

  /**
   * The node id kept here, or a new one from `makeId` (a fresh UUID unless given) written and
   * synced: a new directory gets a new id, an existing one keeps its own. A file without
   * HornetQ's first three bytes gets them as HornetQ makes a new one ("first start" in each).
   */
  async loadOrCreateNodeId(makeId: () => Promise<string> | string = randomUUID): Promise<string> {
    const existing = await this.readNodeId();
    if (existing !== null) return existing;
    const id = await makeId();
    const header = Buffer.alloc(HOLDER_OFFSET, ServerLockState.FIRST_TIME_START, 'latin1');
    (await this.read(0, NODE_ID_OFFSET)).copy(header, 0);
    nodeIdBytes(id).copy(header, NODE_ID_OFFSET);
    await this.handle.write(header, 0, header.length, 0);
    await this.handle.datasync();
    return id;
  }

  /**
   * Makes `file` with HornetQ's first-start header ('0' state, the node id from `makeId`) unless
   * it exists. A live and a backup may start together on a new directory and neither holds a lock
   * yet, so the file appears whole or not at all: written and synced under a name of its own, then
   * linked to `file` (link(2) fails when `file` exists: whoever links first gives the pair its id).
   */
  static async createIfAbsent(file: string, makeId: () => Promise<string> | string): Promise<void> {
    if (await exists(file)) return;
    const header = Buffer.alloc(HOLDER_OFFSET, ServerLockState.FIRST_TIME_START, 'latin1');
    nodeIdBytes(await makeId()).copy(header, NODE_ID_OFFSET);
    const temporary = `${file}.${process.pid}.${randomUUID()}.new`;
    const handle = await open(temporary, 'wx', 0o644);
    try {
      await handle.write(header, 0, header.length, 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temporary);
    }
    await syncDirectory(path.dirname(file));
  }

  /** Writes who holds the lock after HornetQ's bytes, dropping a longer line an earlier holder left. */
  async writeHolder(holder: LockHolder): Promise<void> {
    const line = encodeHolder(holder);
    await this.handle.write(line, 0, line.length, HOLDER_OFFSET);
    await this.handle.truncate(HOLDER_OFFSET + line.length);
    await this.handle.datasync();
  }

  /** Who last wrote themselves down as the holder, or null if no one (or what is there is damaged). */
  async readHolder(): Promise<LockHolder | null> {
    return decodeHolder(await this.read(HOLDER_OFFSET, HOLDER_MAX_BYTES));
  }

  private async read(offset: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await (await open(file, 'r')).close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A new name in a directory survives a crash only once the directory itself is synced. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
