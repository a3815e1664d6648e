import fc from 'fast-check';
import { type CoreMessage } from '../../../src/core/protocol/core-message';
import { decodeFrame, encodePacket } from '../../../src/core/protocol/packet-codec';
import { PacketType } from '../../../src/core/protocol/packet-type';
import {
  copyForMove,
  largestMoveCopies,
  moveGrowthBound,
  type MoveTargets,
} from '../../../src/server/postoffice/message-copy';
import { deliveryFrameBound, largestDeliveryFrameBytes } from '../../../src/server/session/delivery-frames';
import { coreMessage, text } from '../../core/protocol/arbitraries';

/** The message as the broker holds it (decoded from a send, with its wire image). */
function received(message: CoreMessage): CoreMessage {
  const frame = encodePacket(10, { type: PacketType.SESS_SEND, message, requiresResponse: false });
  const packet = decodeFrame(frame, true).packet;
  if (packet.type !== PacketType.SESS_SEND) throw new Error('not a send');
  return packet.message;
}

/** Bytes of a SimpleString's characters, as names and addresses are encoded: two per UTF-16 unit. */
const encoded = (value: string): number => 2 * value.length;

/** An address no longer than `longest`: where a move of that kind may go (the longest, or another). */
function addressUpTo(longest: string, other: string): string {
  return encoded(other) <= encoded(longest) ? other : longest;
}

const move = fc.record({ expiry: fc.boolean(), other: text, fromQueue: text });

describe('the largest copies a message can become on its way to dead-letter and expiry addresses', () => {
  it('no chain of moves makes a copy whose delivery is larger than the largest copy, or than the bound', () => {
    fc.assert(
      fc.property(
        coreMessage,
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.option(text, { nil: null }),
        fc.option(text, { nil: null }),
        fc.array(move, { minLength: 1, maxLength: 4 }),
        (built, queueNames, deadLetterAddress, expiryAddress, moves) => {
          const message = received(built);
          const targets: MoveTargets = { deadLetterAddress, expiryAddress };
          const largest = Math.max(
            0,
            ...largestMoveCopies(message, queueNames, targets).map(largestDeliveryFrameBytes),
          );
          const bound = deliveryFrameBound(message) + moveGrowthBound(message, queueNames, targets);
          let current = message;
          let moved = 0;
          for (const step of moves) {
            const longest = step.expiry ? expiryAddress : deadLetterAddress;
            if (longest === null) continue;
            current = copyForMove(current, {
              messageId: ++moved,
              address: addressUpTo(longest, step.other),
              // The first move leaves one of the queues the message was routed to; later ones, any queue.
              queueName:
                moved === 1 ? (queueNames[moves.length % queueNames.length] as string) : step.fromQueue,
              ...(step.expiry ? { expiredAt: 1 } : {}),
            });
            expect(largestDeliveryFrameBytes(current)).toBeLessThanOrEqual(largest);
            expect(largestDeliveryFrameBytes(current)).toBeLessThanOrEqual(bound);
          }
        },
      ),
    );
  });

  it('the largest copy is reached: a dead-letter move from the longest queue to the longest address', () => {
    fc.assert(
      fc.property(
        coreMessage,
        fc.array(text, { minLength: 1, maxLength: 3 }),
        text,
        (built, queueNames, dla) => {
          const message = received(built);
          const longestQueue = queueNames.reduce((a, b) => (encoded(b) > encoded(a) ? b : a));
          const copy = copyForMove(message, { messageId: 1, address: dla, queueName: longestQueue });
          const copies = largestMoveCopies(message, queueNames, {
            deadLetterAddress: dla,
            expiryAddress: null,
          });
          expect(copies.map(largestDeliveryFrameBytes)).toEqual([largestDeliveryFrameBytes(copy)]);
        },
      ),
    );
  });

  it('a message no queue took, or no address to move to, gains nothing', () => {
    fc.assert(
      fc.property(coreMessage, text, (built, address) => {
        const message = received(built);
        const targets = { deadLetterAddress: address, expiryAddress: address };
        expect(largestMoveCopies(message, [], targets)).toEqual([]);
        expect(moveGrowthBound(message, [], targets)).toBe(0);
        const none = { deadLetterAddress: null, expiryAddress: null };
        expect(largestMoveCopies(message, ['q'], none)).toEqual([]);
        expect(moveGrowthBound(message, ['q'], none)).toBe(0);
      }),
    );
  });
});
