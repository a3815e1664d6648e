import { InteropServer, SERVER_VERSIONS, type ServerKind, type ServerOptions } from './interop-server';
import { makeInteropTlsFiles, type InteropTlsFiles } from './interop-tls-files';
import { javaClientScenarios } from './java-client-scenarios';
import { JmsDriver } from './jms-driver';
import { lookupScenarios } from './lookup-scenarios';
import { messagingScenarios } from './messaging-scenarios';
import { objectMessageScenarios } from './object-message-scenarios';
import { reattachScenarios, SERVER_CONNECTION_TTL_MS } from './reattach-scenarios';
import { createScenarioContext, type ScenarioGroup } from './scenario-context';
import { tlsScenarios } from './tls-scenarios';
import { topicScenarios } from './topic-scenarios';

/** Every group of scenarios, in the order they run; each against both real servers. */
const GROUPS: readonly ScenarioGroup[] = [
  messagingScenarios,
  topicScenarios,
  objectMessageScenarios,
  lookupScenarios,
  reattachScenarios,
  javaClientScenarios,
  tlsScenarios,
];

/** The server every group needs: the union of their destinations and TLS acceptors. */
function serverOptions(groups: readonly ScenarioGroup[], tlsFiles: InteropTlsFiles): ServerOptions {
  return {
    queues: groups.flatMap((group) => group.server.queues ?? []),
    topics: groups.flatMap((group) => group.server.topics ?? []),
    limits: groups.flatMap((group) => group.server.limits ?? []),
    tlsAcceptors: groups.flatMap((group) => group.server.tlsAcceptors ?? []),
    tlsFiles,
    connectionTtlMs: SERVER_CONNECTION_TTL_MS,
  };
}

/**
 * The scenarios every real server runs (issue 13, item 5), started against `kind`: one server
 * and one HornetQ Java JMS client driver for the whole file, our Node client beside them.
 */
export function describeServerScenarios(kind: ServerKind): void {
  describe(`against ${SERVER_VERSIONS[kind]}`, () => {
    let server: InteropServer | null = null;
    let driver: JmsDriver | null = null;
    let tlsFiles: InteropTlsFiles | null = null;
    const context = createScenarioContext(kind, () => {
      if (server === null || driver === null || tlsFiles === null)
        throw new Error('the server or the Java driver did not start');
      return { server, driver, tlsFiles };
    });

    beforeAll(async () => {
      tlsFiles = makeInteropTlsFiles();
      server = await InteropServer.start(kind, serverOptions(GROUPS, tlsFiles));
      driver = await JmsDriver.start();
    });

    afterAll(async () => {
      await context.close();
      await driver?.close();
      await server?.stop();
      tlsFiles?.remove();
    });

    for (const group of GROUPS) group.define(context);
  });
}
