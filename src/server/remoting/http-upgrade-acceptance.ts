import type net from 'node:net';
import {
  HTTP_UPGRADE_NAMES,
  HttpHeadReader,
  MAX_HTTP_HEAD_BYTES,
  quote,
  upgradeAcceptKey,
  upgradeFlavourOf,
  type HttpHead,
  type HttpUpgradeFlavour,
} from '../../core/remoting';

/** What a new connection on an http-upgrade-enabled acceptor comes to. */
export interface UpgradeOutcome {
  /** Switched to the core protocol: `rest` is what the client sent after its request (its first core bytes, if any). */
  upgraded(rest: Buffer): void;
  /** Answered with an HTTP error (written, the socket then closed): why, for the log. */
  refused(reason: string): void;
}

export interface UpgradeAcceptanceOptions {
  /** The acceptor's name: a request naming another endpoint is not for it. */
  acceptorName: string;
  /** How long the whole request may take to arrive. */
  timeoutMs: number;
}

/** An HTTP error answer and why it was given. */
interface Refusal {
  status: string;
  reason: string;
  /** Extra header lines (426 names the protocols it would switch to). */
  headers?: string[];
}

/** A key as HornetQ and Artemis send it: a 16-byte nonce in base64, 24 characters; a bound all the same. */
const KEY = /^[A-Za-z0-9+/]{1,64}={0,2}$/;

/**
 * Reads the HTTP request that a connection to an http-upgrade-enabled acceptor opens with, at
 * most MAX_HTTP_HEAD_BYTES of it and for at most `timeoutMs`, and answers it: 101 and the accept
 * key when it asks to upgrade to the core protocol (in HornetQ's or Artemis' spelling) at this
 * acceptor, an HTTP error otherwise, after which the socket is closed. Reports once, through
 * `outcome`; a socket that closes first is reported as nothing (there is no one left to tell).
 */
export function acceptHttpUpgrade(
  socket: net.Socket,
  options: UpgradeAcceptanceOptions,
  outcome: UpgradeOutcome,
): void {
  const reader = new HttpHeadReader(MAX_HTTP_HEAD_BYTES);
  // Until a transport owns the socket, its errors (a reset mid-request, EPIPE on a refusal) are
  // this code's: unheard, one would end the process. Its 'close' follows and settles.
  const ignoreError = (): void => undefined;
  socket.on('error', ignoreError);
  const settle = (): void => {
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('close', settle);
  };
  const refuse = (refusal: Refusal): void => {
    settle();
    socket.end(errorResponse(refusal), () => socket.destroy());
    outcome.refused(refusal.reason);
  };
  const onData = (chunk: Buffer): void => {
    let request: { head: HttpHead; rest: Buffer } | null;
    try {
      request = reader.push(chunk);
    } catch (error) {
      const tooLarge = reader.overflowed;
      refuse({
        status: tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request',
        reason: `the HTTP upgrade request is refused: ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    if (request === null) return;
    const checked = checkUpgradeRequest(request.head, options.acceptorName);
    if ('status' in checked) {
      refuse(checked);
      return;
    }
    settle();
    socket.removeListener('error', ignoreError);
    // Paused until the caller has its transport listening: the client may already be talking.
    socket.pause();
    socket.write(switchingResponse(checked.flavour, checked.key));
    outcome.upgraded(request.rest);
  };
  const timer = setTimeout(
    () =>
      refuse({
        status: '408 Request Timeout',
        reason: `no whole HTTP upgrade request within ${options.timeoutMs} ms`,
      }),
    options.timeoutMs,
  );
  socket.on('data', onData);
  socket.once('close', settle);
}

/** The flavour and key of a request this acceptor takes, or the HTTP error it gets. */
export function checkUpgradeRequest(
  head: HttpHead,
  acceptorName: string,
): { flavour: HttpUpgradeFlavour; key: string } | Refusal {
  const line = /^(\S+) (\S+) (HTTP\/\d\.\d)$/.exec(head.startLine);
  if (line === null) {
    return { status: '400 Bad Request', reason: `malformed HTTP request line ${quote(head.startLine)}` };
  }
  if (line[1] !== 'GET') {
    return {
      status: '405 Method Not Allowed',
      reason: `an HTTP upgrade is a GET, not ${quote(line[1] as string)}`,
      headers: ['Allow: GET'],
    };
  }
  if (line[3] !== 'HTTP/1.1') {
    return { status: '400 Bad Request', reason: `an HTTP upgrade needs HTTP/1.1, not ${line[3]}` };
  }
  const protocol = head.headers.get('upgrade');
  const flavour = protocol === undefined ? null : upgradeFlavourOf(protocol);
  if (flavour === null) {
    return {
      status: '426 Upgrade Required',
      reason:
        protocol === undefined
          ? 'an HTTP request without Upgrade on an http-upgrade-enabled acceptor (is the client missing http-upgrade-enabled?)'
          : `Upgrade ${quote(protocol)} is neither hornetq-remoting nor activemq-remoting`,
      headers: ['Upgrade: hornetq-remoting, activemq-remoting', 'Connection: Upgrade'],
    };
  }
  const connection = (head.headers.get('connection') ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase());
  if (!connection.includes('upgrade')) {
    return { status: '400 Bad Request', reason: 'an HTTP upgrade request without Connection: Upgrade' };
  }
  if (head.headers.has('content-length') && head.headers.get('content-length') !== '0') {
    return { status: '400 Bad Request', reason: 'an HTTP upgrade request with a body' };
  }
  if (head.headers.has('transfer-encoding')) {
    return { status: '400 Bad Request', reason: 'an HTTP upgrade request with a body' };
  }
  const names = HTTP_UPGRADE_NAMES[flavour];
  const key = head.headers.get(names.keyHeader.toLowerCase());
  if (key === undefined || !KEY.test(key)) {
    return {
      status: '400 Bad Request',
      reason:
        key === undefined
          ? `an HTTP upgrade request without ${names.keyHeader}`
          : `${names.keyHeader} ${quote(key)} is not a base64 key`,
    };
  }
  // As WildFly: no endpoint named means this acceptor; another name is another acceptor's.
  const endpoint = head.headers.get(names.endpointHeader.toLowerCase());
  if (endpoint !== undefined && endpoint !== acceptorName) {
    return {
      status: '404 Not Found',
      reason: `the HTTP upgrade asks for endpoint ${quote(endpoint)}, and this acceptor is '${acceptorName}'`,
    };
  }
  return { flavour, key };
}

function switchingResponse(flavour: HttpUpgradeFlavour, key: string): Buffer {
  const names = HTTP_UPGRADE_NAMES[flavour];
  return headBytes('101 Switching Protocols', [
    `Upgrade: ${names.protocol}`,
    'Connection: Upgrade',
    `${names.acceptHeader}: ${upgradeAcceptKey(key)}`,
  ]);
}

function errorResponse(refusal: Refusal): Buffer {
  return headBytes(refusal.status, [...(refusal.headers ?? []), 'Content-Length: 0', 'Connection: close']);
}

function headBytes(status: string, headers: string[]): Buffer {
  return Buffer.from(
    `HTTP/1.1 ${status}\r\n${headers.map((header) => `${header}\r\n`).join('')}\r\n`,
    'latin1',
  );
}
