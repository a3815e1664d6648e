import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InteropServer, SERVER_VERSIONS, type ServerKind } from './support/interop-server';
import { SERVER_CONNECTION_TTL_MS } from './support/reattach-scenarios';
import {
  CUT_INTERVAL_MS,
  repeatedCutsFromEnv,
  runRepeatedCuts,
  type RepeatedCutsReport,
} from './support/repeated-cuts';

/**
 * Issue 25, first part: our producer's link to a real server is reset every 100-500 ms (seeded)
 * while it sends numbered durable messages with a 1 MiB confirmation window; a journal on disk, so
 * that the server confirms each send only once it is stored. No send may wedge the session, every
 * send whose promise resolved is consumed, and with our duplicate-id option none is consumed
 * twice. Our broker, which answers a reattach once what it received is stored, is in the run too:
 * there nothing fails or is duplicated, with the option or without. Against HornetQ and Artemis,
 * without the option, a replayed send the server had executed already may be executed again (as with
 * HornetQ's own Java client): such duplicates are reported, not failed. REPEATED_CUTS_SEED replays
 * a schedule; REPEATED_CUTS_MESSAGES=5000 is the long run.
 */

const { seeds, count } = repeatedCutsFromEnv();
/** Our broker takes durable sends several times faster: more of them, for as many cuts. */
const OURS_FACTOR = 4;
/** Generous: a send normally takes milliseconds, and a cut costs a reconnect of ~20 ms. */
const DEADLINE_MS = Math.max(120_000, count * 100);

function describeRun(kind: ServerKind, report: RepeatedCutsReport): string {
  const failures = [...new Set(report.failed.map((f) => `${f.error}: ${f.message}`))].join('; ');
  return `${SERVER_VERSIONS[kind]}, seed ${report.seed}: ${report.resolved} resolved, ${report.failed.length} failed (${failures}), ${report.received} received, ${report.duplicated.length} duplicated, ${report.lost.length} lost, ${report.reordered} reordered; ${report.cuts} cuts, ${report.reattaches} reattached, ${report.recreations} re-created; longest send ${report.longestSendMs} ms; sending ${report.sendingMs} ms of ${report.elapsedMs} ms`;
}

describe.each<ServerKind>(['hornetq', 'artemis', 'ours'])(
  'our producer under repeated cuts against %s',
  (kind) => {
    const sends = kind === 'ours' ? OURS_FACTOR * count : count;
    let server: InteropServer | null = null;
    let dataDir = '';
    const queues = seeds.flatMap((_, index) => [`cuts${index}`, `cutsDup${index}`]);

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'hq-cuts-'));
      server = await InteropServer.start(kind, {
        queues,
        dataDir,
        connectionTtlMs: SERVER_CONNECTION_TTL_MS,
      });
    });

    afterAll(async () => {
      await server?.stop();
      if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
    });

    const run = (queue: string, seed: number, duplicateIds: boolean): Promise<RepeatedCutsReport> => {
      if (server === null) throw new Error('the server did not start');
      return runRepeatedCuts({
        serverPort: server.port,
        queue,
        count: sends,
        seed,
        duplicateIds,
        deadlineMs: DEADLINE_MS,
      });
    };

    /** What every run must show: no wedge, every resolved send consumed, order kept, cuts happened. */
    const expectNoWedgeNothingLost = (report: RepeatedCutsReport): void => {
      expect({ wedged: report.wedged, lost: report.lost, reordered: report.reordered }).toEqual({
        wedged: false,
        lost: [],
        reordered: 0,
      });
      expect(report.resolved + report.failed.length).toBe(sends);
      // A failed send is one whose outcome was not known (the session had to be created again):
      // rare, never the rule (a wedge failed every send after the first lost answer).
      expect(report.failed.length).toBeLessThanOrEqual(Math.ceil(sends / 50));
      // A wedged send waited 60 s; no send may wait for more than call-timeout and a reconnect.
      expect(report.longestSendMs).toBeLessThan(15_000);
      // A cut at least every 500 ms while sending (the schedule's longest wait).
      expect(report.cuts).toBeGreaterThanOrEqual(Math.floor(report.sendingMs / CUT_INTERVAL_MS.max) - 1);
    };

    seeds.forEach((seed, index) => {
      test(`seed ${seed}: ${sends} durable sends, no wedge, every resolved send consumed (duplicates reported)`, async () => {
        const report = await run(`cuts${index}`, seed, false);
        console.log(`repeated cuts without duplicate ids: ${describeRun(kind, report)}`);
        expectNoWedgeNothingLost(report);
        // Our broker answers a reattach once what it received is stored: exactly once, always.
        if (kind === 'ours')
          expect({ duplicated: report.duplicated, failed: report.failed }).toEqual({
            duplicated: [],
            failed: [],
          });
      });

      test(`seed ${seed}: with duplicate-id-on-durable-send, none consumed twice`, async () => {
        const report = await run(`cutsDup${index}`, seed, true);
        console.log(`repeated cuts with duplicate ids: ${describeRun(kind, report)}`);
        expectNoWedgeNothingLost(report);
        expect(report.duplicated).toEqual([]);
      });
    });
  },
);
