import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigurationException,
  ErrorCode,
  HornetQException,
  IllegalStateException,
  JMSException,
  JMSRuntimeException,
  NameNotFoundException,
  NamingException,
  NumberFormatException,
  ProtocolError,
  ResourceAllocationException,
  ResourceAllocationRuntimeException,
  TlsConfigurationError,
  TransactionRolledBackException,
  TransactionRolledBackRuntimeException,
  type ErrorCodeName,
} from '../../../src';
import { toJMSException } from '../../../src/jms/jms-error';
import { toJMSRuntimeException } from '../../../src/jms/jms-runtime-error';

/**
 * The `retriable` flag, code by code: the decision as the issue states it (retry can succeed: a
 * link down, a failover, a full address; cannot: security, a bad destination, the application's
 * misuse, TLS verification, an outcome that is not known), checked on HornetQException, on the
 * JMS exceptions made from each code, and against the column of docs/reference/errors.md.
 */

const RETRIABLE: ReadonlySet<ErrorCodeName> = new Set<ErrorCodeName>([
  'NOT_CONNECTED',
  'CONNECTION_TIMEDOUT',
  'DISCONNECTED',
  'UNBLOCKED',
  'IO_ERROR',
  'TRANSACTION_ROLLED_BACK',
  'SESSION_CREATION_REJECTED',
  'ADDRESS_FULL',
  'LARGE_MESSAGE_INTERRUPTED',
]);

const CODES = Object.keys(ErrorCode) as ErrorCodeName[];

test.each(CODES)('HornetQException %s', (code) => {
  expect(new HornetQException(code, 'x').retriable).toBe(RETRIABLE.has(code));
});

test.each(CODES)('the JMS exceptions made from %s carry the same flag', (code) => {
  const checked = toJMSException(new HornetQException(code, 'x'));
  expect(checked.retriable).toBe(RETRIABLE.has(code));
  const unchecked = toJMSRuntimeException(checked) as JMSRuntimeException;
  expect(JMSRuntimeException.is(unchecked)).toBe(true);
  expect(unchecked.retriable).toBe(RETRIABLE.has(code));
});

test('docs/reference/errors.md gives every code, with its number and the same flag', () => {
  const page = readFileSync(path.resolve(__dirname, '../../../docs/reference/errors.md'), 'utf8');
  const rows = new Map<string, { number: number; retriable: string }>();
  for (const match of page.matchAll(/^\| (\d+) +\| `([A-Z_]+)` +\|.*\| (yes|no) +\|$/gm)) {
    rows.set(match[2] as string, { number: Number(match[1]), retriable: match[3] as string });
  }
  expect([...rows.keys()].sort()).toEqual([...CODES].sort());
  for (const code of CODES)
    expect([code, rows.get(code)]).toEqual([
      code,
      { number: ErrorCode[code], retriable: RETRIABLE.has(code) ? 'yes' : 'no' },
    ]);
});

test("without a core code, the JMS class decides; the listener's FAILOVER and DISCONNECT are retriable", () => {
  expect(new ResourceAllocationException('full').retriable).toBe(true);
  expect(new TransactionRolledBackException('rolled back').retriable).toBe(true);
  expect(new ResourceAllocationRuntimeException('full').retriable).toBe(true);
  expect(new TransactionRolledBackRuntimeException('rolled back').retriable).toBe(true);
  expect(new JMSException('plain').retriable).toBe(false);
  expect(new IllegalStateException('closed').retriable).toBe(false);
  expect(new JMSRuntimeException('plain').retriable).toBe(false);
  expect(new JMSException('lost', 'FAILOVER').retriable).toBe(true);
  expect(new JMSException('gone', 'DISCONNECT').retriable).toBe(true);
  expect(new JMSException('bad', 'INVALID_CONFIGURATION').retriable).toBe(false);
  // A code beneath wins over the class: a resource error whose cause was a security refusal is not.
  expect(new ResourceAllocationException('x', 'SECURITY_EXCEPTION').retriable).toBe(false);
  // An application's subclass takes its parent's flag.
  class QuotaExceeded extends ResourceAllocationException {}
  expect(new QuotaExceeded('quota').retriable).toBe(true);
});

test('wire, TLS settings, naming, configuration and number errors are never retriable', () => {
  expect(new ProtocolError('bad frame').retriable).toBe(false);
  expect(new TlsConfigurationError('connector', 'no such file').retriable).toBe(false);
  expect(new NamingException('x').retriable).toBe(false);
  expect(new NameNotFoundException('x').retriable).toBe(false);
  expect(new ConfigurationException('x').retriable).toBe(false);
  expect(new NumberFormatException('x').retriable).toBe(false);
});
