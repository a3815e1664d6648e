import {
  HornetQException,
  IllegalStateException,
  IllegalStateRuntimeException,
  InvalidClientIDException,
  InvalidClientIDRuntimeException,
  InvalidDestinationException,
  InvalidDestinationRuntimeException,
  InvalidSelectorException,
  InvalidSelectorRuntimeException,
  JMSException,
  JMSRuntimeException,
  JMSSecurityException,
  JMSSecurityRuntimeException,
  MessageEOFException,
  MessageFormatException,
  MessageFormatRuntimeException,
  MessageNotWriteableException,
  MessageNotWriteableRuntimeException,
  ResourceAllocationException,
  ResourceAllocationRuntimeException,
  TransactionInProgressException,
  TransactionInProgressRuntimeException,
  TransactionRolledBackException,
  TransactionRolledBackRuntimeException,
} from '../../../src';
import { toJMSRuntimeException } from '../../../src/jms/jms-runtime-error';
import { useJmsFixture } from '../../support/jms-fixture';
import { setting } from '../../support/secured-broker';

/**
 * How the context turns the checked JMSException family into JMS 2.0's unchecked one (HornetQ's
 * JmsExceptionUtils): each class to its twin, with the message, the error code and the original
 * as the cause; core failures through the JMSException for them; anything else untouched.
 */

type Checked = new (message: string, errorCode?: string | null) => JMSException;
type Unchecked = { is(value: unknown): boolean; readonly name: string };

const TWINS: Array<[Checked, Unchecked]> = [
  [IllegalStateException, IllegalStateRuntimeException],
  [InvalidClientIDException, InvalidClientIDRuntimeException],
  [InvalidDestinationException, InvalidDestinationRuntimeException],
  [InvalidSelectorException, InvalidSelectorRuntimeException],
  [JMSSecurityException, JMSSecurityRuntimeException],
  [MessageFormatException, MessageFormatRuntimeException],
  [MessageNotWriteableException, MessageNotWriteableRuntimeException],
  [ResourceAllocationException, ResourceAllocationRuntimeException],
  [TransactionInProgressException, TransactionInProgressRuntimeException],
  [TransactionRolledBackException, TransactionRolledBackRuntimeException],
];

test.each(TWINS)('%p becomes its twin with the message, the error code and the cause', (checked, twin) => {
  const original = new checked('what went wrong', 'SOME_CODE');
  const converted = toJMSRuntimeException(original) as JMSRuntimeException;
  expect(twin.is(converted)).toBe(true);
  expect(converted.name).toBe(twin.name);
  expect(converted.message).toBe('what went wrong');
  expect(converted.getErrorCode()).toBe('SOME_CODE');
  expect(converted.code).toBe('SOME_CODE');
  expect(converted.cause).toBe(original);
  expect(JMSException.is(converted)).toBe(false);
});

test('a class without a twin (MessageEOFException, JMSException) becomes a plain JMSRuntimeException, coded as such', () => {
  for (const original of [new MessageEOFException('end'), new JMSException('plain')]) {
    const converted = toJMSRuntimeException(original) as JMSRuntimeException;
    expect(converted.constructor).toBe(JMSRuntimeException);
    expect(converted.code).toBe('ERR_JMS_RUNTIME');
    expect(converted.getErrorCode()).toBeNull();
  }
});

test('a core failure goes through the JMSException for its code; other errors and runtime ones pass unchanged', () => {
  const core = new HornetQException('QUEUE_DOES_NOT_EXIST', 'no such queue');
  const converted = toJMSRuntimeException(core) as JMSRuntimeException;
  expect(InvalidDestinationRuntimeException.is(converted)).toBe(true);
  expect(converted.getErrorCode()).toBe('QUEUE_DOES_NOT_EXIST');
  expect((converted.cause as JMSException).cause).toBe(core);
  const typeError = new TypeError('bad argument');
  expect(toJMSRuntimeException(typeError)).toBe(typeError);
  const already = new IllegalStateRuntimeException('closed');
  expect(toJMSRuntimeException(already)).toBe(already);
  expect(already.code).toBe('ERR_JMS_ILLEGAL_STATE_RUNTIME');
});

describe('on a secured broker', () => {
  const fx = useJmsFixture({
    security: {
      users: [{ name: 'reader', password: 'reader-pw', roles: ['reader'] }],
      settings: [setting('#', { consume: ['reader'] })],
    },
  });

  test('bad credentials: createContext rejects with JMSSecurityRuntimeException', async () => {
    const attempt = fx.factory().createContext('reader', 'wrong');
    await expect(attempt).rejects.toBeInstanceOf(JMSSecurityRuntimeException);
    await expect(fx.factory().createContext('nobody', 'x', 1)).rejects.toHaveProperty(
      'errorCode',
      'SECURITY_EXCEPTION',
    );
  });

  test('a send without permission: JMSSecurityRuntimeException from JMSProducer.send', async () => {
    const context = fx.track(await fx.factory().createContext('reader', 'reader-pw'));
    const send = context.createProducer().send(fx.queue('Queue1'), 'not allowed');
    await expect(send).rejects.toBeInstanceOf(JMSSecurityRuntimeException);
  });
});
