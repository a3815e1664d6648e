import { HornetQException, type Packet } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { silentLogger } from '../../../src/core/remoting';
import {
  SessionPacketHandler,
  expectsResponse,
  type SessionOperations,
} from '../../../src/server/session/session-packet-handler';

/**
 * The one rule of which session packets get an answer, applied alike to a packet handled well and
 * to one that failed: a request is answered (its operation's answer, NULL_RESPONSE, or an
 * EXCEPTION), a one-way packet never gets a response a client would take for another call's.
 */
const QUERY_ANSWER: Packet = {
  type: PacketType.SESS_QUEUEQUERY_RESP,
  exists: true,
  durable: true,
  temporary: false,
  consumerCount: 0,
  messageCount: 0,
  filter: null,
  address: 'a',
  name: 'q',
};

function operations(fail: boolean, extended = false): SessionOperations {
  const act = (): void => {
    if (fail) throw new HornetQException('QUEUE_DOES_NOT_EXIST', 'no such queue');
  };
  const answer = (): Packet => {
    act();
    return QUERY_ANSWER;
  };
  return new Proxy({ name: 's1', isClosed: false, extended } as unknown as SessionOperations, {
    get: (target, key) =>
      key in target
        ? (target as unknown as Record<string | symbol, unknown>)[key]
        : key === 'createConsumer' || key === 'queueQuery'
          ? answer
          : act,
  });
}

const consumer = (requiresResponse: boolean): Packet => ({
  type: PacketType.SESS_CREATECONSUMER,
  consumerId: 1,
  queueName: 'q',
  filter: null,
  browseOnly: false,
  requiresResponse,
});

describe('SessionPacketHandler', () => {
  it.each([
    ['a request that succeeds gets its operation’s answer', consumer(true), false, QUERY_ANSWER],
    [
      'the same packet sent one-way gets nothing, though its operation had an answer',
      consumer(false),
      false,
      null,
    ],
    [
      'a request with nothing to say gets NULL_RESPONSE',
      { type: PacketType.SESS_STOP },
      false,
      { type: PacketType.NULL_RESPONSE },
    ],
    ['a one-way packet gets nothing', { type: PacketType.SESS_START }, false, null],
    [
      'a request that fails gets an EXCEPTION',
      consumer(true),
      true,
      { type: PacketType.EXCEPTION, code: 'QUEUE_DOES_NOT_EXIST', message: 'no such queue' },
    ],
    [
      'a one-way packet that fails gets nothing (a Java client would take an EXCEPTION as another call’s answer)',
      consumer(false),
      true,
      null,
    ],
  ] as Array<[string, Packet, boolean, Packet | null]>)('%s', (_what, packet, fail, expected) => {
    expect(new SessionPacketHandler(operations(fail), silentLogger).handle(packet)).toEqual(expected);
  });

  it('a failed one-way packet of one of our clients is told in SESS_ASYNC_EXCEPTION, which answers nothing', () => {
    const answer = new SessionPacketHandler(operations(true, true), silentLogger).handle(consumer(false));
    expect(answer).toEqual({
      type: PacketType.SESS_ASYNC_EXCEPTION,
      code: 'QUEUE_DOES_NOT_EXIST',
      message: 'no such queue',
    });
    expect(expectsResponse(consumer(false))).toBe(false);
  });

  it('an extension packet on a session created without the extension is refused', () => {
    const answer = new SessionPacketHandler(operations(false), silentLogger).handle({
      type: PacketType.SESS_QUEUE_STATS,
      start: 0,
      maxCount: 10,
    });
    expect(answer).toMatchObject({ type: PacketType.EXCEPTION, code: 'UNSUPPORTED_PACKET' });
  });
});
