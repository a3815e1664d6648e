import { OPEN_GUARD } from '../../../src/server/security/session-guard';
import { ConsoleSessions, csrfTokenMatches } from '../../../src/server/console/console-sessions';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1_000_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('ConsoleSessions', () => {
  const options = { maxSessions: 3, idleTimeoutMs: 1_000, maxLifetimeMs: 10_000 };

  it('finds a session by the id given at login, and only by it', () => {
    const sessions = new ConsoleSessions(options);
    const { id, session } = sessions.create('alice', OPEN_GUARD);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.find(id)).toBe(session);
    expect(sessions.find(`${id}x`)).toBeNull();
    expect(sessions.find('')).toBeNull();
  });

  it('gives each session its own id and CSRF token, neither the other', () => {
    const sessions = new ConsoleSessions(options);
    const a = sessions.create('alice', OPEN_GUARD);
    const b = sessions.create('alice', OPEN_GUARD);
    expect(new Set([a.id, b.id, a.session.csrfToken, b.session.csrfToken]).size).toBe(4);
  });

  it('ends a session unused for the idle timeout, and one past its lifetime however busy', () => {
    const time = clock();
    const sessions = new ConsoleSessions({ ...options, now: time.now });
    const idle = sessions.create('idle', OPEN_GUARD);
    const busy = sessions.create('busy', OPEN_GUARD);
    for (let elapsed = 0; elapsed < 9_900; elapsed += 900) {
      time.advance(900);
      expect(sessions.find(busy.id)).not.toBeNull();
    }
    expect(sessions.find(idle.id)).toBeNull();
    time.advance(100);
    expect(sessions.find(busy.id)).toBeNull();
    expect(sessions.size).toBe(0);
  });

  it('keeps at most maxSessions, ending the least recently used', () => {
    const sessions = new ConsoleSessions(options);
    const first = sessions.create('a', OPEN_GUARD);
    const second = sessions.create('b', OPEN_GUARD);
    const third = sessions.create('c', OPEN_GUARD);
    sessions.find(first.id);
    const fourth = sessions.create('d', OPEN_GUARD);
    expect(sessions.size).toBe(3);
    expect(sessions.find(second.id)).toBeNull();
    for (const kept of [first, third, fourth]) expect(sessions.find(kept.id)).not.toBeNull();
  });

  it('logs out by id; an unknown id changes nothing', () => {
    const sessions = new ConsoleSessions(options);
    const { id } = sessions.create('alice', OPEN_GUARD);
    sessions.remove('unknown');
    expect(sessions.size).toBe(1);
    sessions.remove(id);
    expect(sessions.find(id)).toBeNull();
  });
});

describe('csrfTokenMatches', () => {
  const { session } = new ConsoleSessions({ maxSessions: 1, idleTimeoutMs: 1, maxLifetimeMs: 1 }).create(
    'alice',
    OPEN_GUARD,
  );

  it('matches the session token only', () => {
    expect(csrfTokenMatches(session, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, '')).toBe(false);
    expect(csrfTokenMatches(session, session.csrfToken.slice(0, -1))).toBe(false);
    expect(csrfTokenMatches(session, `${session.csrfToken}=`)).toBe(false);
  });
});
