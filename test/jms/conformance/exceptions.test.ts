import net from 'node:net';
import * as api from '../../../src';
import {
  HornetQConnectionFactory,
  IllegalStateException,
  InvalidClientIDException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSException,
  JMSSecurityException,
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
  NumberFormatException,
  ResourceAllocationException,
  TransactionInProgressException,
  TransactionRolledBackException,
} from '../../../src';
import { failureOf, useJmsFixture } from '../../support/jms-fixture';

/**
 * The exception classes of the contract: each a JMSException with its name, error code and linked
 * exception; `is()` recognises instances of the class (or a subclass) made by another copy of the
 * package, which `instanceof` cannot; and the errors the real stack throws carry the right class
 * and HornetQ's code.
 */

const fx = useJmsFixture();

type ExceptionClass = typeof JMSException;
type ExceptionsModule = typeof import('../../../src/jms/exceptions');

const SUBCLASSES: Array<[string, ExceptionClass]> = [
  ['IllegalStateException', IllegalStateException],
  ['InvalidClientIDException', InvalidClientIDException],
  ['InvalidDestinationException', InvalidDestinationException],
  ['InvalidSelectorException', InvalidSelectorException],
  ['JMSSecurityException', JMSSecurityException],
  ['MessageEOFException', MessageEOFException],
  ['MessageFormatException', MessageFormatException],
  ['MessageNotReadableException', MessageNotReadableException],
  ['MessageNotWriteableException', MessageNotWriteableException],
  ['ResourceAllocationException', ResourceAllocationException],
  ['TransactionInProgressException', TransactionInProgressException],
  ['TransactionRolledBackException', TransactionRolledBackException],
];

/** The exceptions module loaded again, as a second copy of the package would be. */
function otherCopy(): ExceptionsModule {
  let copy: ExceptionsModule | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<ExceptionsModule>('../../../src/jms/exceptions');
  });
  if (copy === undefined) throw new Error('isolateModules gave no module');
  return copy;
}

describe('classes', () => {
  test('the package exports every class of the contract', () => {
    for (const [name] of SUBCLASSES) expect(typeof (api as Record<string, unknown>)[name]).toBe('function');
    expect(api.JMSException).toBe(JMSException);
    expect(api.NumberFormatException).toBe(NumberFormatException);
  });

  test.each(SUBCLASSES)('%s is a JMSException and an Error, named after its class', (name, Class) => {
    const error = new Class('went wrong');
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(JMSException);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.message).toBe('went wrong');
    expect(String(error)).toBe(`${name}: went wrong`);
    expect(error.stack).toContain(name);
  });

  test('error code: null by default, else the code given; getErrorCode agrees', () => {
    const plain = new JMSException('plain');
    expect(plain.errorCode).toBeNull();
    expect(plain.getErrorCode()).toBeNull();
    const coded = new IllegalStateException('coded', 'OBJECT_CLOSED');
    expect(coded.errorCode).toBe('OBJECT_CLOSED');
    expect(coded.getErrorCode()).toBe('OBJECT_CLOSED');
  });

  test('the linked exception is the cause', () => {
    const cause = new Error('beneath');
    const error = new TransactionRolledBackException('rolled back', 'TRANSACTION_ROLLED_BACK', { cause });
    expect(error.getLinkedException()).toBe(cause);
    expect(error.cause).toBe(cause);
    expect(new JMSException('no cause').getLinkedException()).toBeUndefined();
  });

  test('NumberFormatException is not a JMSException (Java runtime exception, §6.5)', () => {
    const error = new NumberFormatException('xyz');
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(JMSException);
    expect(error.name).toBe('NumberFormatException');
    expect(JMSException.is(error)).toBe(false);
  });
});

describe('is()', () => {
  test('recognises the class and its subclasses, nothing else', () => {
    const ise = new IllegalStateException('x');
    expect(JMSException.is(ise)).toBe(true);
    expect(IllegalStateException.is(ise)).toBe(true);
    expect(InvalidDestinationException.is(ise)).toBe(false);
    expect(IllegalStateException.is(new JMSException('base'))).toBe(false);
    for (const value of [
      null,
      undefined,
      'IllegalStateException',
      42,
      new Error('x'),
      {},
      { name: 'JMSException' },
    ]) {
      expect(JMSException.is(value)).toBe(false);
    }
  });

  test.each(SUBCLASSES)(
    '%s.is works on an instance from another copy of the package, both ways',
    (name, Class) => {
      const copy = otherCopy();
      const CopyClass = (copy as unknown as Record<string, ExceptionClass>)[name] as ExceptionClass;
      expect(CopyClass).not.toBe(Class);
      const foreign = new CopyClass('from the other copy', 'SOME_CODE');
      expect(foreign).not.toBeInstanceOf(Class);
      expect(foreign).not.toBeInstanceOf(JMSException);
      expect(Class.is(foreign)).toBe(true);
      expect(JMSException.is(foreign)).toBe(true);
      expect(foreign.getErrorCode()).toBe('SOME_CODE');
      const local = new Class('from this copy');
      expect(CopyClass.is(local)).toBe(true);
      expect(copy.JMSException.is(local)).toBe(true);
    },
  );

  test('another copy tells subclasses apart too', () => {
    const copy = otherCopy();
    const foreign = new copy.InvalidSelectorException('bad selector');
    expect(InvalidSelectorException.is(foreign)).toBe(true);
    expect(IllegalStateException.is(foreign)).toBe(false);
    expect(InvalidDestinationException.is(foreign)).toBe(false);
    expect(copy.IllegalStateException.is(new InvalidSelectorException('x'))).toBe(false);
  });

  test('an error thrown by the real stack is recognised by another copy’s classes', async () => {
    const { session } = await fx.open();
    await session.close();
    const error = await failureOf(() => session.createMessage());
    const copy = otherCopy();
    expect(copy.IllegalStateException.is(error)).toBe(true);
    expect(copy.JMSException.is(error)).toBe(true);
    expect(copy.InvalidDestinationException.is(error)).toBe(false);
  });
});

describe('what the stack throws', () => {
  test('a failed connection: JMSException with a code and the core failure linked', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const factory = fx.track(new HornetQConnectionFactory({ host: '127.0.0.1', port }));
    const error = (await failureOf(factory.createConnection())) as JMSException;
    expect(JMSException.is(error)).toBe(true);
    expect(error.getErrorCode()).toEqual(expect.any(String));
    expect(error.getLinkedException()).toBeInstanceOf(Error);
  });

  test('a client id in use: InvalidClientIDException with the broker’s code', async () => {
    await fx.connect({ clientID: 'taken' });
    const other = await fx.connect();
    const error = (await failureOf(other.setClientID('taken'))) as JMSException;
    expect(error).toBeInstanceOf(InvalidClientIDException);
    expect(error.getErrorCode()).toBe('DUPLICATE_METADATA');
    expect(error.getLinkedException()).toBeDefined();
  });

  test('an unknown queue: InvalidDestinationException; an invalid selector: InvalidSelectorException saying where', async () => {
    const { session } = await fx.open();
    expect(await failureOf(session.createConsumer(session.createQueue('Nope')))).toBeInstanceOf(
      InvalidDestinationException,
    );
    const error = (await failureOf(session.createConsumer(fx.queue('Queue1'), 'a = = 1'))) as Error;
    expect(error).toBeInstanceOf(InvalidSelectorException);
    expect(error.message).toMatch(/\d/);
  });

  test('use after close: IllegalStateException', async () => {
    const { connection } = await fx.open();
    await connection.close();
    const error = (await failureOf(connection.createSession(false, 1))) as JMSException;
    expect(error).toBeInstanceOf(IllegalStateException);
  });
});
