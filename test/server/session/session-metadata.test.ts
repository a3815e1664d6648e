import { MAX_METADATA_KEYS_PER_SESSION, SessionMetadata } from '../../../src/server/session/session-metadata';

describe('SessionMetadata', () => {
  it('keeps one value per key, the last one set', () => {
    const metadata = new SessionMetadata();
    metadata.set('jms-session', '');
    metadata.set('jms-session', 'again');
    expect(metadata.get('jms-session')).toBe('again');
    expect(metadata.size).toBe(1);
  });

  it('refuses a key past the bound, so that invented keys cannot grow it, and still replaces values', () => {
    const metadata = new SessionMetadata();
    for (let i = 0; i < MAX_METADATA_KEYS_PER_SESSION; i++) metadata.set(`k${i}`, 'v');
    expect(() => metadata.set('one-more', 'v')).toThrow(/at most 16 keys; 'one-more' would be one more/);
    metadata.set('k0', 'changed');
    expect(metadata.get('k0')).toBe('changed');
    expect(metadata.size).toBe(MAX_METADATA_KEYS_PER_SESSION);
  });
});
