import { isUserId } from '../../../src/core/protocol/user-id';
import { newMessageUserId } from '../../../src/jms/message/message-user-id';

/**
 * A producer's message ids survive HornetQ's and Artemis' clients unchanged: they rebuild every user
 * id they read as a version-1 UUID with the RFC 4122 variant (HornetQ's UUID(TYPE_TIME_BASED, bytes)
 * masks byte 6's high nibble to 1 and byte 8's top bits to 10), so ours carry those marks already.
 */
describe('newMessageUserId', () => {
  it('is a canonical lowercase UUID with version 1 and the RFC 4122 variant', () => {
    for (let i = 0; i < 200; i++) {
      const id = newMessageUserId();
      expect(isUserId(id)).toBe(true);
      expect(id.charAt(14)).toBe('1');
      expect('89ab').toContain(id.charAt(19));
    }
  });

  it('keeps its randomness elsewhere: 10 000 ids are all different', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newMessageUserId()));
    expect(ids.size).toBe(10_000);
  });
});
