import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../core/remoting';
import { EmbeddedJMS } from '../jndi';

/** The placeholder config/hornetq-configuration.xml reads its port from: `${hornetq.remoting.netty.port:5445}`. */
const PORT_VARIABLE = 'HORNETQ_REMOTING_NETTY_PORT';

/** What the broker said while the demo ran: reattaches and what it replayed, warnings and errors. */
export class BrokerLog implements Logger {
  reattachedSessions = 0;
  replayedToClients = 0;
  readonly problems: string[] = [];

  debug(): void {}

  info(object: object): void {
    // ServerConnection reports each reattach with the number of packets it replayed to the client.
    const replayed = (object as { replayed?: unknown }).replayed;
    if (typeof replayed === 'number') {
      this.reattachedSessions++;
      this.replayedToClients += replayed;
    }
  }

  warn(_object: object, message?: string): void {
    this.problems.push(`warning: ${message ?? ''}`);
    console.warn(`broker warning: ${message ?? ''}`);
  }

  error(_object: object, message?: string): void {
    this.problems.push(`error: ${message ?? ''}`);
    console.error(`broker error: ${message ?? ''}`);
  }

  child(): Logger {
    return this;
  }
}

export interface DemoBroker {
  readonly jms: EmbeddedJMS;
  readonly log: BrokerLog;
  /** Set when the configured port was taken and the broker took a free one instead. */
  readonly fallbackFrom: string | null;
  /** Where its journal is: a directory of its own, removed by `stop`. */
  readonly dataDirectory: string;
  stop(): Promise<void>;
}

/**
 * Starts the broker from `configDir` as a user would. A demo must not fail because something else
 * on the machine (another broker, a CI service) holds 5445: then it starts again on a free port.
 */
export async function startDemoBroker(configDir: string): Promise<DemoBroker> {
  const log = new BrokerLog();
  // A journal of its own, as a user's broker has one (persistent messages are fdatasync'd before
  // they are confirmed): it starts empty and leaves nothing behind.
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'hornetq-demo-'));
  const started = (jms: EmbeddedJMS, fallbackFrom: string | null): DemoBroker => ({
    jms,
    log,
    fallbackFrom,
    dataDirectory,
    stop: async () => {
      try {
        await jms.stop();
      } finally {
        await rm(dataDirectory, { recursive: true, force: true });
      }
    },
  });
  try {
    const first = new EmbeddedJMS({ configDir, logger: log, dataDirectory });
    try {
      await first.start();
      return started(first, null);
    } catch (error) {
      if (!addressInUse(error)) throw error;
    }
    const configured = process.env[PORT_VARIABLE] ?? '5445';
    const jms = new EmbeddedJMS({
      configDir,
      logger: log,
      dataDirectory,
      env: { ...process.env, [PORT_VARIABLE]: '0' },
    });
    await jms.start();
    return started(jms, configured);
  } catch (error) {
    await rm(dataDirectory, { recursive: true, force: true });
    throw error;
  }
}

function addressInUse(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EADDRINUSE') return true;
  }
  return false;
}
