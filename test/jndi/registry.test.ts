import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  HornetQConnectionFactory,
  HornetQQueue,
  HornetQTemporaryQueue,
  HornetQTopic,
  InitialContext,
  NameAlreadyBoundException,
  NameNotFoundException,
  NamingException,
} from '../../src';
import { normalizeName } from '../../src/jndi/names';
import { captureLogger, JMS_HEAD, tempDir } from './support';

describe('InitialContext registry operations', () => {
  test('bind, lookup, rebind, unbind, with or without a leading slash', () => {
    const context = new InitialContext();
    const queue = new HornetQQueue('orders');
    context.bind('/queue/orders', queue);
    expect(context.lookup('queue/orders')).toBe(queue);
    expect(context.lookup('//queue//orders/')).toBe(queue);
    expect(() => context.bind('queue/orders', new HornetQQueue('x'))).toThrow(NameAlreadyBoundException);
    expect(() => context.bind('queue/orders', queue)).toThrow('queue/orders is already bound');
    const other = new HornetQQueue('other');
    context.rebind('queue/orders', other);
    expect(context.lookup('/queue/orders')).toBe(other);
    context.unbind('/queue/orders');
    expect(() => context.lookup('/queue/orders')).toThrow(NameNotFoundException);
    expect(() => context.lookup('/queue/orders')).toThrow('/queue/orders not bound');
    expect(() => context.unbind('queue/orders')).toThrow(new NameNotFoundException('queue/orders not bound'));
    context.rebind('fresh', other);
    expect(context.lookup('fresh')).toBe(other);
  });

  test('rename moves a binding and refuses an unbound source or a bound target', () => {
    const context = new InitialContext();
    const topic = new HornetQTopic('news');
    context.bind('a', topic);
    context.bind('b', 1);
    expect(() => context.rename('missing', 'c')).toThrow(new NameNotFoundException('missing not bound'));
    expect(() => context.rename('a', '/b')).toThrow(new NameAlreadyBoundException('/b is already bound'));
    context.rename('/a', 'topic/news');
    expect(context.lookup('topic/news')).toBe(topic);
    expect(() => context.lookup('a')).toThrow(NameNotFoundException);
  });

  test('list: names without a leading slash, sorted, by prefix, with class names; contexts are implicit', () => {
    const context = new InitialContext();
    context.bind('/ConnectionFactory', new HornetQConnectionFactory());
    context.bind('queue/b', new HornetQQueue('b'));
    context.bind('queue/a', new HornetQQueue('a'));
    context.bind('topic/t', new HornetQTopic('t'));
    context.bind('queueish', 'x');
    expect(context.list()).toEqual([
      { name: 'ConnectionFactory', className: 'HornetQConnectionFactory' },
      { name: 'queue/a', className: 'HornetQQueue' },
      { name: 'queue/b', className: 'HornetQQueue' },
      { name: 'queueish', className: 'string' },
      { name: 'topic/t', className: 'HornetQTopic' },
    ]);
    expect(context.list('/queue/').map((p) => p.name)).toEqual(['queue/a', 'queue/b']);
    expect(context.list('queue').map((p) => p.name)).toEqual(['queue/a', 'queue/b', 'queueish']);
    expect(context.list('/')).toHaveLength(5);
    expect(() => context.lookup('queue')).toThrow(
      'queue not bound (it is a context holding queue/a, queue/b)',
    );
    expect(() => context.bind('queue', 1)).toThrow(NameAlreadyBoundException);
    expect(() => context.bind('queueish/x', 1)).toThrow(
      new NamingException('queueish/x cannot be bound: queueish is bound to an object, not a context'),
    );
  });

  test("'java:' names: java:/x, java:x and /java:/x are one name", () => {
    const context = new InitialContext();
    context.bind('java:/jms/queue/Orders', 'q');
    expect(context.lookup('java:jms/queue/Orders')).toBe('q');
    expect(context.lookup('/java:/jms/queue/Orders')).toBe('q');
    expect(context.list('java:/jms')).toEqual([{ name: 'java:/jms/queue/Orders', className: 'string' }]);
    expect(() => context.lookup('jms/queue/Orders')).toThrow(NameNotFoundException);
    expect(normalizeName('java://a//b')).toBe('java:/a/b');
  });

  test("list: a prefix may be any name's beginning, 'java:/' and 'java:' included", () => {
    const context = new InitialContext();
    context.bind('java:/jms/queue/Orders', 'q');
    context.bind('java:/ConnectionFactory', 'cf');
    context.bind('javaQueue', 'j');
    context.bind('queue/a', 'a');
    const names = (prefix: string): string[] => context.list(prefix).map((pair) => pair.name);
    const JAVA_NAMES = ['java:/ConnectionFactory', 'java:/jms/queue/Orders'];
    expect(names('java:/')).toEqual(JAVA_NAMES);
    expect(names('java:')).toEqual(JAVA_NAMES);
    expect(names('/java://')).toEqual(JAVA_NAMES);
    expect(names('java:/j')).toEqual(['java:/jms/queue/Orders']);
    expect(names('java:jms/')).toEqual(['java:/jms/queue/Orders']);
    expect(names('java:/jms/queue/Orders')).toEqual(['java:/jms/queue/Orders']);
    expect(names('java')).toEqual([...JAVA_NAMES, 'javaQueue']);
    expect(names('q')).toEqual(['queue/a']);
    expect(names('queue//')).toEqual(['queue/a']);
    expect(names('//')).toHaveLength(4);
    expect(names('java:/nothing')).toEqual([]);
  });

  test('empty names and temporary destinations are refused', () => {
    const context = new InitialContext();
    expect(() => context.bind('/', 1)).toThrow(new NamingException("'/' is not a name: it is empty"));
    expect(() => context.lookup('')).toThrow(NamingException);
    const temporary = new HornetQTemporaryQueue('tmp', () => Promise.resolve());
    expect(() => context.bind('tmp', temporary)).toThrow(NamingException);
    expect(() => context.rebind('tmp', temporary)).toThrow(
      'a temporary destination lives with its connection',
    );
    expect(context.list()).toEqual([]);
  });
});

describe('unusual names (JMSServerDeployerTest.testDeployUnusualQueueNames / TopicNames)', () => {
  const NAMES = [
    'queue.with.dots.in.name',
    'queue with spaces in name',
    'queue/with/slashes/in/name',
    'queue\\with\\backslashes\\in\\name',
    'queue with # chars and * chars in name',
  ];
  const xmlName = (name: string): string => name.replace(/#/g, '&#35;').replace(/\*/g, '&#42;');

  test.each(['queue', 'topic'] as const)(
    '%s names with dots, spaces, slashes, backslashes, # and *',
    async (kind) => {
      const { dir, remove } = await tempDir();
      try {
        const elements = NAMES.map(
          (name, i) =>
            `<${kind} name="${xmlName(name)}"><entry name="/${kind}/${xmlName(name)}"/><entry name="n${i}"/></${kind}>`,
        );
        await fs.writeFile(
          path.join(dir, 'hornetq-jms.xml'),
          `${JMS_HEAD}\n${elements.join('\n')}\n</configuration>`,
        );
        const context = await InitialContext.load({ configDir: dir, env: {}, logger: captureLogger() });
        NAMES.forEach((name, i) => {
          const byEntry = context.lookup(`/${kind}/${name}`);
          expect(context.lookup(`n${i}`)).toBe(byEntry);
          if (kind === 'queue') expect((byEntry as HornetQQueue).getQueueName()).toBe(name);
          else expect((byEntry as HornetQTopic).getTopicName()).toBe(name);
        });
        expect(context.list(`${kind}/queue/with/`).map((p) => p.name)).toEqual([
          `${kind}/queue/with/slashes/in/name`,
        ]);
        await context.close();
      } finally {
        await remove();
      }
    },
  );
});
