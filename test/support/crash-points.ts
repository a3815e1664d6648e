import {
  CRASH_MODES,
  FaultFileSystem,
  seededRandom,
  type CrashMode,
  type FileOperation,
} from './fault-file-system';
import { MemoryFileSystem } from './memory-file-system';

/** Where a run crashed: before the index-th file operation of its step (or after the step, if it had fewer). */
export interface CrashPoint {
  index: number;
  mode: CrashMode;
  /** The operation the file system froze at; null when the step finished first. */
  operation: FileOperation | null;
  /** Whether the store had said the step was on disk (afterSync) before the crash. */
  confirmed: boolean;
}

/** A piece of work whose every crash point is tried, and what must hold after each. */
export interface CrashPointScenario<Life, Context> {
  /** Starts on a file system: a fresh one, or what a crash left of one. */
  start(fileSystem: FaultFileSystem): Promise<Life>;
  /** What comes before the step, not crashed; its result goes to the step. */
  setUp(life: Life): Promise<Context>;
  /** The work under test: starts it, and calls `done` when the store says it is on disk (or failed). */
  step(life: Life, context: Context, done: (error: Error | null) => void): void;
  /** Lets go of a life (a crashed one too: errors are the crash's). */
  stop(life: Life): Promise<void>;
  /**
   * Checks the state a restart found, and returns its name (e.g. 'committed'): the runner counts
   * them, so that a test can assert that both sides of the commit were reached.
   */
  check(life: Life, point: CrashPoint): Promise<string>;
}

const DEADLINE_MS = 10_000;
/** Turns waited after the step's answer for what it does after (a file removed once a delete is synced). */
const TRAILING_TURNS = 30;

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs the scenario once per crash point and mode: crashes at the step's first file operation,
 * then its second, and so on (every write, datasync, directory sync, open, rename and remove is a
 * boundary), until a run's step ends with no operation left to crash at; each crash keeps what
 * `mode` keeps of unsynced writes, and a restart on what survived is checked. A mode listed more
 * than once is tried again with another seed (another place to tear a write at). Returns how often
 * each outcome was found. A failed check names the point, the operation and the mode.
 */
export async function enumerateCrashPoints<Life, Context>(
  scenario: CrashPointScenario<Life, Context>,
  modes: readonly CrashMode[] = CRASH_MODES,
): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  for (let index = 0; ; index++) {
    let crashedInStep = false;
    for (const [round, mode] of modes.entries()) {
      const point = await crashAt(scenario, index, mode, seededRandom(index * modes.length + round + 1));
      if (point.operation !== null) crashedInStep = true;
      const restarted = await scenario.start(point.fileSystem);
      try {
        const outcome = await scenario.check(restarted, point);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      } catch (error) {
        const where =
          point.operation === null
            ? 'after the step'
            : `${point.operation.operation} ${point.operation.path}`;
        throw new Error(
          `crash point ${index} (${where}, ${mode}, ${point.confirmed ? 'confirmed' : 'not confirmed'}): ${(error as Error).message}`,
          { cause: error },
        );
      } finally {
        await scenario.stop(restarted);
      }
      // Past the step's last operation every mode crashes at the same place: once is enough.
      if (point.operation === null) break;
    }
    if (!crashedInStep) return outcomes;
  }
}

async function crashAt<Life, Context>(
  scenario: CrashPointScenario<Life, Context>,
  index: number,
  mode: CrashMode,
  random: () => number,
): Promise<CrashPoint & { fileSystem: FaultFileSystem }> {
  const fileSystem = new FaultFileSystem(new MemoryFileSystem());
  const life = await scenario.start(fileSystem);
  const context = await scenario.setUp(life);
  const base = fileSystem.operations.length;
  fileSystem.crashWhen(() => fileSystem.operations.length - base > index);
  let answer: Error | null | undefined;
  scenario.step(life, context, (error) => (answer = error));
  const deadline = Date.now() + DEADLINE_MS;
  while (answer === undefined) {
    if (Date.now() > deadline)
      throw new Error(`crash point ${index} (${mode}): the step never got an answer`);
    await turn();
  }
  for (let i = 0; i < TRAILING_TURNS; i++) await turn();
  const operation = fileSystem.frozenAt;
  // The process is dead from here on: whatever it would still do fails, then the power cut.
  if (!fileSystem.isFrozen) fileSystem.crashWhen(() => true);
  await scenario.stop(life);
  await fileSystem.crash(mode, random);
  return { index, mode, operation, confirmed: answer === null, fileSystem };
}
