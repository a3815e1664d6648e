import {
  HornetQConnectionFactory,
  HornetQDestination,
  HornetQQueue,
  HornetQTemporaryQueue,
  HornetQTopic,
  InitialContext,
  JMSException,
  NameNotFoundException,
  NamingException,
} from '../../src';

/**
 * lookup(name, Class): the bound object checked to be a Class and typed so, or a NamingException
 * (ERR_NAME_WRONG_TYPE) that says what the name holds and what was expected. Destinations are
 * checked by their brand, so one made by another copy of the package passes.
 */

type DestinationModule = typeof import('../../src/jms/destination');

function otherCopy(): DestinationModule {
  let copy: DestinationModule | undefined;
  jest.isolateModules(() => {
    copy = jest.requireActual<DestinationModule>('../../src/jms/destination');
  });
  if (copy === undefined) throw new Error('isolateModules gave no module');
  return copy;
}

function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('lookup(name, Class)', () => {
  const context = new InitialContext();
  const factory = new HornetQConnectionFactory({ host: '127.0.0.1', port: 5445 });
  const queue = new HornetQQueue('Orders');
  context.bind('/ConnectionFactory', factory);
  context.bind('/queue/Orders', queue);
  context.bind('/topic/Prices', new HornetQTopic('Prices'));
  context.bind('/answer', 42);

  afterAll(async () => {
    await factory.close();
    await context.close();
  });

  test('returns the object when it is one, typed as the class (an abstract class too)', () => {
    const found: HornetQQueue = context.lookup('/queue/Orders', HornetQQueue);
    expect(found).toBe(queue);
    expect(found.getQueueName()).toBe('Orders');
    const destination: HornetQDestination = context.lookup('queue/Orders', HornetQDestination);
    expect(destination).toBe(queue);
    expect(context.lookup('/ConnectionFactory', HornetQConnectionFactory)).toBe(factory);
  });

  test('something else under the name: NamingException ERR_NAME_WRONG_TYPE saying what it holds and what was expected', () => {
    const error = thrownBy(() => context.lookup('/ConnectionFactory', HornetQQueue));
    expect(NamingException.is(error)).toBe(true);
    expect(NameNotFoundException.is(error)).toBe(false);
    expect(error).toMatchObject({
      code: 'ERR_NAME_WRONG_TYPE',
      message: "'/ConnectionFactory' is a HornetQConnectionFactory, not a HornetQQueue",
    });
    expect(thrownBy(() => context.lookup('/topic/Prices', HornetQQueue))).toMatchObject({
      message: "'/topic/Prices' is a HornetQTopic, not a HornetQQueue",
    });
    expect(thrownBy(() => context.lookup('/answer', HornetQDestination))).toMatchObject({
      message: "'/answer' is a number, not a HornetQDestination",
    });
    expect(thrownBy(() => context.lookup('/queue/Orders', HornetQTemporaryQueue))).toMatchObject({
      code: 'ERR_NAME_WRONG_TYPE',
    });
  });

  test('an unbound name is still NameNotFoundException', () => {
    expect(thrownBy(() => context.lookup('/queue/Nope', HornetQQueue))).toMatchObject({
      code: 'ERR_NAME_NOT_FOUND',
      name: 'NameNotFoundException',
    });
  });

  test('a class with is() is asked, a class without one by its prototype chain', () => {
    class Handle {
      constructor(readonly id: number) {}
    }
    context.rebind('/handle', new Handle(7));
    expect(context.lookup('/handle', Handle).id).toBe(7);
    expect(thrownBy(() => context.lookup('/handle', JMSException))).toMatchObject({
      message: "'/handle' is a Handle, not a JMSException",
    });
  });

  test("a destination made by another copy of the package passes this copy's check, and the reverse", () => {
    const copy = otherCopy();
    context.rebind('/queue/Foreign', new copy.HornetQQueue('Foreign'));
    const foreign = context.lookup('/queue/Foreign', HornetQQueue);
    expect(foreign).not.toBeInstanceOf(HornetQQueue);
    expect(foreign.getQueueName()).toBe('Foreign');
    expect(context.lookup('/queue/Orders', copy.HornetQQueue)).toBe(queue);
    expect(thrownBy(() => context.lookup('/queue/Foreign', HornetQTopic))).toMatchObject({
      code: 'ERR_NAME_WRONG_TYPE',
    });
  });

  test('the untyped lookup is unchanged', () => {
    expect(context.lookup<HornetQQueue>('/queue/Orders')).toBe(queue);
    expect(context.lookup('/answer')).toBe(42);
  });
});
