import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError, Interrupted } from '../../src/cli/shared/cli-error';
import {
  Broker,
  ConfigurationException,
  HornetQBytesMessage,
  ClientSessionFactory,
  HornetQTextMessage,
  CoreErrorCode,
  DataDirectoryLockedError,
  DataDamageError,
  HornetQException,
  IllegalStateException,
  InitialContext,
  InvalidClientIDException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSException,
  JMSSecurityException,
  JmsErrorCode,
  JndiErrorCode,
  JournalCorruptionError,
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
  NameAlreadyBoundException,
  NameNotFoundException,
  NamingException,
  NumberFormatException,
  PageCorruptError,
  ProtocolError,
  ResourceAllocationException,
  ServerErrorCode,
  StorageError,
  TlsConfigurationError,
  TransactionInProgressException,
  TransactionRolledBackException,
  JMSRuntimeException,
  IllegalStateRuntimeException,
  InvalidClientIDRuntimeException,
  InvalidDestinationRuntimeException,
  InvalidSelectorRuntimeException,
  JMSSecurityRuntimeException,
  MessageFormatRuntimeException,
  MessageNotWriteableRuntimeException,
  ResourceAllocationRuntimeException,
  TransactionInProgressRuntimeException,
  TransactionRolledBackRuntimeException,
} from '../../src';
import { InVmRegistry } from '../../src/core/remoting';
import { failureOf, useJmsFixture } from '../support/jms-fixture';

/**
 * Every public error class: Node's `code`, `name` after the class, and a static `is()` that checks
 * a brand (a Symbol.for key) instead of `instanceof`, so that it accepts the class and its
 * subclasses from any copy of the package and refuses parents, other classes and look-alikes.
 */

type AnyClass = { is(value: unknown): boolean; readonly name: string; prototype: Error };

interface Row {
  name: string;
  /** The module the class lives in, for loading a second copy of it. */
  module: string;
  make(type: AnyClass): Error;
  code: string;
  /** Ancestors among the rows (whose is() must accept this class's instances). */
  parents: string[];
}

type Construct = new (...args: unknown[]) => Error;
const build =
  (...args: unknown[]) =>
  (type: AnyClass): Error =>
    new (type as unknown as Construct)(...args);

const JMS = '../../src/jms/exceptions';
const JMS_SUBCLASSES: Array<[string, string]> = [
  ['IllegalStateException', 'ERR_JMS_ILLEGAL_STATE'],
  ['InvalidClientIDException', 'ERR_JMS_INVALID_CLIENT_ID'],
  ['InvalidDestinationException', 'ERR_JMS_INVALID_DESTINATION'],
  ['InvalidSelectorException', 'ERR_JMS_INVALID_SELECTOR'],
  ['JMSSecurityException', 'ERR_JMS_SECURITY'],
  ['MessageEOFException', 'ERR_JMS_MESSAGE_EOF'],
  ['MessageFormatException', 'ERR_JMS_MESSAGE_FORMAT'],
  ['MessageNotReadableException', 'ERR_JMS_MESSAGE_NOT_READABLE'],
  ['MessageNotWriteableException', 'ERR_JMS_MESSAGE_NOT_WRITEABLE'],
  ['ResourceAllocationException', 'ERR_JMS_RESOURCE_ALLOCATION'],
  ['TransactionInProgressException', 'ERR_JMS_TRANSACTION_IN_PROGRESS'],
  ['TransactionRolledBackException', 'ERR_JMS_TRANSACTION_ROLLED_BACK'],
];
/** JMS 2.0's unchecked family: a parallel tree under JMSRuntimeException, no kin of JMSException. */
const JMS_RUNTIME_SUBCLASSES: Array<[string, string]> = [
  ['IllegalStateRuntimeException', 'ERR_JMS_ILLEGAL_STATE_RUNTIME'],
  ['InvalidClientIDRuntimeException', 'ERR_JMS_INVALID_CLIENT_ID_RUNTIME'],
  ['InvalidDestinationRuntimeException', 'ERR_JMS_INVALID_DESTINATION_RUNTIME'],
  ['InvalidSelectorRuntimeException', 'ERR_JMS_INVALID_SELECTOR_RUNTIME'],
  ['JMSSecurityRuntimeException', 'ERR_JMS_SECURITY_RUNTIME'],
  ['MessageFormatRuntimeException', 'ERR_JMS_MESSAGE_FORMAT_RUNTIME'],
  ['MessageNotWriteableRuntimeException', 'ERR_JMS_MESSAGE_NOT_WRITEABLE_RUNTIME'],
  ['ResourceAllocationRuntimeException', 'ERR_JMS_RESOURCE_ALLOCATION_RUNTIME'],
  ['TransactionInProgressRuntimeException', 'ERR_JMS_TRANSACTION_IN_PROGRESS_RUNTIME'],
  ['TransactionRolledBackRuntimeException', 'ERR_JMS_TRANSACTION_ROLLED_BACK_RUNTIME'],
];

const ROWS: Row[] = [
  {
    name: 'HornetQException',
    module: '../../src/core/protocol/hornetq-exception',
    make: build('QUEUE_DOES_NOT_EXIST', 'no queue'),
    code: 'QUEUE_DOES_NOT_EXIST',
    parents: [],
  },
  {
    name: 'ProtocolError',
    module: '../../src/core/protocol/protocol-error',
    make: build('bad frame'),
    code: 'ERR_PROTOCOL',
    parents: [],
  },
  {
    name: 'TlsConfigurationError',
    module: '../../src/core/remoting/tls-settings',
    make: build("acceptor 'netty'", 'no key-store-path'),
    code: 'ERR_TLS_CONFIGURATION',
    parents: [],
  },
  { name: 'JMSException', module: JMS, make: build('failed'), code: 'ERR_JMS', parents: [] },
  ...JMS_SUBCLASSES.map(([name, code]) => ({
    name,
    module: JMS,
    make: build('failed'),
    code,
    parents: ['JMSException'],
  })),
  { name: 'JMSRuntimeException', module: JMS, make: build('failed'), code: 'ERR_JMS_RUNTIME', parents: [] },
  ...JMS_RUNTIME_SUBCLASSES.map(([name, code]) => ({
    name,
    module: JMS,
    make: build('failed'),
    code,
    parents: ['JMSRuntimeException'],
  })),
  { name: 'NumberFormatException', module: JMS, make: build("'x'"), code: 'ERR_NUMBER_FORMAT', parents: [] },
  {
    name: 'JournalCorruptionError',
    module: '../../src/server/storage/journal/journal-corruption-error',
    make: build('hornetq-data-1.hq', 64, 'CRC32C does not match'),
    code: 'ERR_JOURNAL_CORRUPT',
    parents: [],
  },
  {
    name: 'PageCorruptError',
    module: '../../src/server/paging/page-entry-codec',
    make: build('1.page', 8, 'too short'),
    code: 'ERR_PAGE_CORRUPT',
    parents: [],
  },
  {
    name: 'StorageError',
    module: '../../src/server/storage/storage-error',
    make: build('the node id file holds no UUID'),
    code: 'ERR_STORAGE',
    parents: [],
  },
  {
    name: 'DataDamageError',
    module: '../../src/server/storage/damage/data-damage-error',
    make: build([
      {
        kind: 'missing-journal-file',
        file: 'hornetq-data-2.hq',
        offset: null,
        detail: 'deleted',
        messages: null,
      },
    ]),
    code: 'ERR_DATA_DAMAGE',
    parents: [],
  },
  {
    name: 'DataDirectoryLockedError',
    module: '../../src/server/lock/data-directory-locked-error',
    make: build('/var/lib/hornetq/journal', null),
    code: 'ERR_DATA_DIRECTORY_LOCKED',
    parents: [],
  },
  {
    name: 'NamingException',
    module: '../../src/jndi/naming-exceptions',
    make: build('x'),
    code: 'ERR_NAMING',
    parents: [],
  },
  {
    name: 'NameNotFoundException',
    module: '../../src/jndi/naming-exceptions',
    make: build('x not bound'),
    code: 'ERR_NAME_NOT_FOUND',
    parents: ['NamingException'],
  },
  {
    name: 'NameAlreadyBoundException',
    module: '../../src/jndi/naming-exceptions',
    make: build('x is already bound'),
    code: 'ERR_NAME_ALREADY_BOUND',
    parents: ['NamingException'],
  },
  {
    name: 'ConfigurationException',
    module: '../../src/jndi/configuration-exception',
    make: build('bad'),
    code: 'ERR_CONFIGURATION',
    parents: [],
  },
  {
    name: 'CliError',
    module: '../../src/cli/shared/cli-error',
    make: build('no such queue'),
    code: 'ERR_CLI',
    parents: [],
  },
  {
    name: 'Interrupted',
    module: '../../src/cli/shared/cli-error',
    make: build('SIGINT'),
    code: 'ERR_CLI_INTERRUPTED',
    parents: ['CliError'],
  },
];

const CLASSES: Record<string, AnyClass> = {
  HornetQException,
  ProtocolError,
  TlsConfigurationError,
  JMSException,
  IllegalStateException,
  InvalidClientIDException,
  InvalidDestinationException,
  InvalidSelectorException,
  JMSSecurityException,
  MessageEOFException,
  MessageFormatException,
  MessageNotReadableException,
  MessageNotWriteableException,
  ResourceAllocationException,
  TransactionInProgressException,
  TransactionRolledBackException,
  JMSRuntimeException,
  IllegalStateRuntimeException,
  InvalidClientIDRuntimeException,
  InvalidDestinationRuntimeException,
  InvalidSelectorRuntimeException,
  JMSSecurityRuntimeException,
  MessageFormatRuntimeException,
  MessageNotWriteableRuntimeException,
  ResourceAllocationRuntimeException,
  TransactionInProgressRuntimeException,
  TransactionRolledBackRuntimeException,
  NumberFormatException,
  JournalCorruptionError,
  PageCorruptError,
  StorageError,
  DataDirectoryLockedError,
  DataDamageError,
  NamingException,
  NameNotFoundException,
  NameAlreadyBoundException,
  ConfigurationException,
  CliError,
  Interrupted,
};

function classOf(name: string): AnyClass {
  const type = CLASSES[name];
  if (type === undefined) throw new Error(`no class ${name} in the table`);
  return type;
}

/** The class loaded again from its module, as a second copy of the package has it. */
function otherCopy(row: Row): AnyClass {
  let type: AnyClass | undefined;
  jest.isolateModules(() => {
    type = jest.requireActual<Record<string, AnyClass>>(row.module)[row.name];
  });
  if (type === undefined) throw new Error(`${row.module} exports no ${row.name}`);
  return type;
}

const LOOK_ALIKES: unknown[] = [
  null,
  undefined,
  'JMSException',
  42,
  {},
  new Error('plain'),
  Object.assign(new Error('coded'), { code: 'ERR_NAMING', name: 'NamingException' }),
  { name: 'HornetQException', code: 'QUEUE_DOES_NOT_EXIST', message: 'x' },
];

describe.each(ROWS)('$name', (row) => {
  const type = classOf(row.name);

  test('has its code, its name and its message, and is an Error', () => {
    const error = row.make(type);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error & { code?: unknown }).code).toBe(row.code);
    expect(error.name).toBe(row.name);
    expect(String(error)).toMatch(new RegExp(`^${row.name}: `));
    expect(Object.keys(error)).not.toContain('name');
  });

  test('is() accepts it and its subclasses only, not parents, other classes or look-alikes', () => {
    const error = row.make(type);
    for (const other of ROWS) {
      const accepts = other.name === row.name || row.parents.includes(other.name);
      expect([other.name, classOf(other.name).is(error)]).toEqual([other.name, accepts]);
    }
    for (const value of LOOK_ALIKES) expect(type.is(value)).toBe(false);
  });

  test('is() holds across two copies of the module, both ways', () => {
    const copy = otherCopy(row);
    expect(copy).not.toBe(type);
    const foreign = row.make(copy);
    expect(foreign).not.toBeInstanceOf(type);
    expect(type.is(foreign)).toBe(true);
    expect(copy.is(row.make(type))).toBe(true);
    for (const parent of row.parents) expect(classOf(parent).is(foreign)).toBe(true);
    expect(foreign.name).toBe(row.name);
  });
});

test('the built package (dist/, compiled by the global setup) and src recognise each other’s errors and messages', () => {
  const dist = jest.requireActual<typeof import('../../src')>(
    path.join(__dirname, '..', '..', 'dist', 'index.js'),
  );
  expect(dist.NameNotFoundException).not.toBe(NameNotFoundException);
  expect(NamingException.is(new dist.NameNotFoundException('x'))).toBe(true);
  expect(dist.NameNotFoundException.is(new NameNotFoundException('x'))).toBe(true);
  expect(dist.NameAlreadyBoundException.is(new NameNotFoundException('x'))).toBe(false);
  expect(HornetQException.is(new dist.HornetQException('UNBLOCKED', 'x'), 'UNBLOCKED')).toBe(true);
  expect(dist.isTextMessage(new HornetQTextMessage('x'))).toBe(true);
  expect(dist.isBytesMessage(new HornetQTextMessage('x'))).toBe(false);
});

describe('codes', () => {
  test('a JMSException given an error code carries it as code too; getErrorCode is unchanged', () => {
    const coded = new IllegalStateException('closed', 'OBJECT_CLOSED');
    expect(coded.code).toBe('OBJECT_CLOSED');
    expect(coded.getErrorCode()).toBe('OBJECT_CLOSED');
    const plain = new IllegalStateException('closed');
    expect(plain.code).toBe(JmsErrorCode.IllegalStateException);
    expect(plain.getErrorCode()).toBeNull();
  });

  test("an application's subclass without a brand: its parent's code, its own name, instanceof for is()", () => {
    class OrderRejected extends JMSException {}
    const error = new OrderRejected('rejected');
    expect(error.code).toBe('ERR_JMS');
    expect(error.name).toBe('OrderRejected');
    expect(OrderRejected.is(error)).toBe(true);
    expect(OrderRejected.is(new JMSException('base'))).toBe(false);
    expect(JMSException.is(error)).toBe(true);
  });

  test('HornetQException.is with a code checks the code too, across copies', () => {
    const copy = otherCopy(ROWS[0] as Row) as unknown as typeof HornetQException;
    const foreign = new copy('UNBLOCKED', 'released');
    expect(HornetQException.is(foreign, 'UNBLOCKED')).toBe(true);
    expect(HornetQException.is(foreign, 'DISCONNECTED')).toBe(false);
  });

  test('every code is UPPER_SNAKE and no two tables share one', () => {
    const all = [
      ...Object.values(CoreErrorCode),
      ...Object.values(JmsErrorCode),
      ...Object.values(JndiErrorCode),
      ...Object.values(ServerErrorCode),
    ];
    for (const code of all) expect(code).toMatch(/^ERR_[A-Z0-9]+(_[A-Z0-9]+)*$/);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('what the real API raises', () => {
  const fx = useJmsFixture();

  test('InitialContext.lookup of an unbound name: NameNotFoundException, ERR_NAME_NOT_FOUND', () => {
    const context = new InitialContext();
    let thrown: unknown;
    try {
      context.lookup('/queue/Nope');
    } catch (error) {
      thrown = error;
    }
    expect(NameNotFoundException.is(thrown)).toBe(true);
    expect(NamingException.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'ERR_NAME_NOT_FOUND', name: 'NameNotFoundException' });
    context.bind('/queue/Once', 1);
    expect(() => context.bind('/queue/Once', 2)).toThrow(
      expect.objectContaining({ code: 'ERR_NAME_ALREADY_BOUND', name: 'NameAlreadyBoundException' }),
    );
  });

  test('a client id the broker already has: InvalidClientIDException with HornetQ’s code', async () => {
    await fx.connect({ clientID: 'taken' });
    const other = await fx.connect();
    const error = await failureOf(other.setClientID('taken'));
    expect(InvalidClientIDException.is(error)).toBe(true);
    expect(JMSException.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'DUPLICATE_METADATA', name: 'InvalidClientIDException' });
    expect(HornetQException.is((error as JMSException).getLinkedException(), 'DUPLICATE_METADATA')).toBe(
      true,
    );
  });

  test('a consumer on a queue that does not exist: InvalidDestinationException, its class code', async () => {
    const { session } = await fx.open();
    const error = await failureOf(session.createConsumer(session.createQueue('Nope')));
    expect(InvalidDestinationException.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ERR_JMS_INVALID_DESTINATION', name: 'InvalidDestinationException' });
  });

  test('a closed session: IllegalStateException with a code', async () => {
    const { session } = await fx.open();
    await session.close();
    const error = await failureOf(() => session.createTextMessage('x'));
    expect(IllegalStateException.is(error)).toBe(true);
    expect(typeof (error as JMSException).code).toBe('string');
  });

  test('a port in use: Broker.start rejects with Node’s EADDRINUSE as its code, naming the acceptor', async () => {
    const port = fx.broker.getPort();
    const second = new Broker({
      acceptors: [{ name: 'again', type: 'tcp', host: '127.0.0.1', port }],
      persistenceEnabled: false,
      securityEnabled: false,
    });
    const error = await failureOf(second.start());
    await second.stop();
    expect(error).toMatchObject({ code: 'EADDRINUSE' });
    expect((error as Error).message).toContain(`acceptor 'again' cannot listen on 127.0.0.1:${port}`);
  });

  test('a journal directory that is missing with create-journal-dir false: StorageError, ERR_STORAGE, naming it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-error-brand-'));
    try {
      const journalDirectory = path.join(dir, 'no-such-journal');
      const broker = new Broker({
        acceptors: [],
        persistenceEnabled: true,
        createJournalDir: false,
        journalDirectory,
        securityEnabled: false,
      });
      const thrown = await failureOf(broker.start());
      expect(StorageError.is(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'ERR_STORAGE', name: 'StorageError' });
      expect((thrown as Error).message).toContain(journalDirectory);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('a data directory another broker holds: DataDirectoryLockedError, ERR_DATA_DIRECTORY_LOCKED, naming it', async () => {
    const dataDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-error-brand-'));
    const config = { acceptors: [], persistenceEnabled: true, dataDirectory, securityEnabled: false };
    const first = new Broker(config);
    try {
      await first.start();
      const thrown = await failureOf(new Broker(config).start());
      expect(DataDirectoryLockedError.is(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'ERR_DATA_DIRECTORY_LOCKED', name: 'DataDirectoryLockedError' });
      expect((thrown as Error).message).toContain(path.join(dataDirectory, 'data', 'journal'));
    } finally {
      await first.stop();
      await fs.rm(dataDirectory, { recursive: true, force: true });
    }
  });

  test('a hornetq-jms.xml that is not XML: ConfigurationException, ERR_CONFIGURATION, naming the file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hornetq-error-brand-'));
    try {
      const file = path.join(dir, 'hornetq-jms.xml');
      await fs.writeFile(file, '<configuration xmlns="urn:hornetq"><queue name="a">\n</configuration>');
      const error = await failureOf(InitialContext.load({ jmsConfig: file }));
      expect(ConfigurationException.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'ERR_CONFIGURATION', name: 'ConfigurationException' });
      expect((error as ConfigurationException).file).toContain('hornetq-jms.xml');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe("Node's codes on argument and option checks", () => {
  function thrownBy(call: () => unknown): unknown {
    try {
      call();
    } catch (error) {
      return error;
    }
    throw new Error('expected a throw');
  }

  test('options objects: RangeError ERR_INVALID_ARG_VALUE listing every problem', async () => {
    const broker = thrownBy(() => new Broker({ maxFrameBytes: 10, idCacheSize: -1 }));
    expect(broker).toBeInstanceOf(RangeError);
    expect(broker).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' });
    expect((broker as Error).message).toMatch(
      /^invalid broker configuration: .*maxFrameBytes.*; .*idCacheSize/,
    );
    const client = await failureOf(ClientSessionFactory.connect({ reconnectAttempts: -5, callTimeout: -7 }));
    expect(client).toBeInstanceOf(RangeError);
    expect(client).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' });
    expect((client as Error).message).toMatch(/callTimeout.*; .*reconnectAttempts/);
  });

  test('property names and bodies: TypeError ERR_INVALID_ARG_TYPE or ERR_INVALID_ARG_VALUE, RangeError ERR_OUT_OF_RANGE', () => {
    const message = new HornetQTextMessage('x');
    const empty = thrownBy(() => message.setStringProperty('', 'v'));
    expect(empty).toBeInstanceOf(TypeError);
    expect(empty).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    const reserved = thrownBy(() => message.setStringProperty('JMS_HORNETQ_X', 'v'));
    expect(reserved).toBeInstanceOf(TypeError);
    expect(reserved).toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' });
    const bytes = new HornetQBytesMessage();
    bytes.writeBytes(Buffer.from([1, 2]));
    bytes.reset();
    expect(thrownBy(() => bytes.readBytes('no' as unknown as Uint8Array))).toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
    });
    const outside = thrownBy(() => bytes.readBytes(new Uint8Array(1), 5));
    expect(outside).toBeInstanceOf(RangeError);
    expect(outside).toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
  });

  test('a second in-VM acceptor on one server-id: HornetQException ILLEGAL_STATE', () => {
    InVmRegistry.register(9_999, () => undefined);
    try {
      const error = thrownBy(() => InVmRegistry.register(9_999, () => undefined));
      expect(HornetQException.is(error, 'ILLEGAL_STATE')).toBe(true);
      expect((error as Error).message).toContain('server-id 9999');
    } finally {
      InVmRegistry.unregister(9_999);
    }
  });
});
