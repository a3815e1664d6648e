import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { HttpHeadReader, quote, type HttpHead } from './http-head';

/**
 * The two spellings of the core protocol's HTTP upgrade: HornetQ 2.4's connector sends
 * 'hornetq-remoting' (NettyConnector), Artemis' sends 'activemq-remoting'; WildFly accepts both
 * (the legacy one through its http-acceptor's upgrade-legacy). The key, answer and endpoint
 * header names differ with them; the handshake is the same.
 */
export type HttpUpgradeFlavour = 'hornetq' | 'activemq';

export interface HttpUpgradeNames {
  /** The Upgrade header's value. */
  protocol: string;
  /** The client's nonce. */
  keyHeader: string;
  /** The server's proof that it read the nonce. */
  acceptHeader: string;
  /** Names the acceptor behind a web server that fronts several. */
  endpointHeader: string;
}

export const HTTP_UPGRADE_NAMES: Readonly<Record<HttpUpgradeFlavour, Readonly<HttpUpgradeNames>>> =
  Object.freeze({
    hornetq: Object.freeze({
      protocol: 'hornetq-remoting',
      keyHeader: 'Sec-HornetQRemoting-Key',
      acceptHeader: 'Sec-HornetQRemoting-Accept',
      endpointHeader: 'http-upgrade-endpoint',
    }),
    activemq: Object.freeze({
      protocol: 'activemq-remoting',
      keyHeader: 'Sec-ActiveMQRemoting-Key',
      acceptHeader: 'Sec-ActiveMQRemoting-Accept',
      endpointHeader: 'httpUpgradeEndpoint',
    }),
  });

/** Appended to the key before hashing, by both HornetQ and Artemis (as WebSocket does with its own GUID). */
const ACCEPT_KEY_SUFFIX = 'CF70DEB8-70F9-4FBA-8B4F-DFC3E723B4CD';
const NONCE_BYTES = 16;

/** What a client asks for: where (for the Host header) and, optionally, which acceptor. */
export interface HttpUpgradeRequest {
  host: string;
  port: number;
  /** http-upgrade-endpoint: the acceptor's name on a server that fronts several (WildFly's http-acceptor). */
  endpoint?: string | undefined;
  /** 'hornetq' unless said otherwise: this client speaks HornetQ 2.4's core protocol. */
  flavour?: HttpUpgradeFlavour;
}

/** The flavour whose Upgrade value this is (compared as HTTP compares tokens: case aside); null if none. */
export function upgradeFlavourOf(protocol: string): HttpUpgradeFlavour | null {
  const wanted = protocol.trim().toLowerCase();
  for (const flavour of ['hornetq', 'activemq'] as const) {
    if (HTTP_UPGRADE_NAMES[flavour].protocol === wanted) return flavour;
  }
  return null;
}

/** The answer that proves a server read `key`: base64(SHA-1(key + the agreed suffix)). */
export function upgradeAcceptKey(key: string): string {
  return createHash('sha1').update(`${key}${ACCEPT_KEY_SUFFIX}`, 'utf8').digest('base64');
}

/** A fresh nonce for one request: 16 random bytes in base64, as HornetQ's connector sends. */
export function newUpgradeKey(random: (size: number) => Buffer = randomBytes): string {
  return random(NONCE_BYTES).toString('base64');
}

/**
 * The GET that asks for the upgrade. HornetQ's connector builds it from an empty path, which
 * Netty writes as '/'. Throws when the endpoint could break the request apart (a line break in it).
 */
export function upgradeRequest(request: HttpUpgradeRequest, key: string): Buffer {
  const names = HTTP_UPGRADE_NAMES[request.flavour ?? 'hornetq'];
  const host = net.isIPv6(request.host) ? `[${request.host}]` : request.host;
  const lines = [
    'GET / HTTP/1.1',
    `Host: ${host}:${request.port}`,
    `Upgrade: ${names.protocol}`,
    'Connection: Upgrade',
    `${names.keyHeader}: ${key}`,
  ];
  if (request.endpoint !== undefined) {
    if (!/^[\u0020-\u007e]+$/.test(request.endpoint)) {
      throw new Error(`http-upgrade-endpoint ${quote(request.endpoint)} must be printable ASCII`);
    }
    lines.push(`${names.endpointHeader}: ${request.endpoint}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * Checks the server's answer to upgradeRequest(…, key): 101, the same protocol, and the accept
 * key computed from ours (anything else did not read our request: a proxy, a cache, another
 * service). Throws saying what came instead, the status line quoted.
 */
export function checkUpgradeResponse(
  head: HttpHead,
  key: string,
  flavour: HttpUpgradeFlavour = 'hornetq',
): void {
  const names = HTTP_UPGRADE_NAMES[flavour];
  const status = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(head.startLine);
  if (status === null) throw new Error(`it answered with ${quote(head.startLine)}, not an HTTP status line`);
  if (status[1] !== '101') {
    throw new Error(`it refused the HTTP upgrade to ${names.protocol}: ${quote(head.startLine)}`);
  }
  const protocol = head.headers.get('upgrade') ?? '';
  if (upgradeFlavourOf(protocol) !== flavour) {
    throw new Error(`it switched to ${quote(protocol)}, not ${names.protocol}`);
  }
  const accept = head.headers.get(names.acceptHeader.toLowerCase());
  const expected = upgradeAcceptKey(key);
  if (accept !== expected) {
    throw new Error(
      accept === undefined
        ? `its 101 answer has no ${names.acceptHeader} header`
        : `its ${names.acceptHeader} ${quote(accept)} is not the answer to the key sent (expected ${quote(expected)})`,
    );
  }
}

/**
 * The client's side of one upgrade: the request to write, then the answer, read chunk by chunk
 * (at most MAX_HTTP_HEAD_BYTES of it) until the server has switched or said why not.
 */
export class ClientUpgradeHandshake {
  private readonly key: string;
  private readonly answer = new HttpHeadReader();

  constructor(
    private readonly request: HttpUpgradeRequest,
    random?: (size: number) => Buffer,
  ) {
    this.key = newUpgradeKey(random);
  }

  /** The GET to write; throws when the endpoint could break it apart. */
  requestBytes(): Buffer {
    return upgradeRequest(this.request, this.key);
  }

  /**
   * Takes the next chunk of the answer: false while the head is incomplete, true once the server
   * has switched to the core protocol; throws saying why it has not.
   */
  take(chunk: Buffer): boolean {
    const received = this.answer.push(chunk);
    if (received === null) return false;
    checkUpgradeResponse(received.head, this.key, this.request.flavour);
    // A core server speaks only when spoken to: bytes already here are not its.
    if (received.rest.length > 0) {
      throw new Error(`it sent ${received.rest.length} bytes after its 101 answer, before any request`);
    }
    return true;
  }
}
