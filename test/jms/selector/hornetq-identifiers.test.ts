import { matches, message, truthOf } from './support';

/**
 * HornetQ's core filter identifiers, which HornetQ's and our JMS clients send (selector-translator.ts)
 * and core clients write, as HornetQ's FilterImpl.getHeaderFieldValue reads them; and identifiers
 * nothing defines, which HornetQ looks up as properties (NULL when absent), so that the marker
 * filters of JMS topics and temporary topics select nothing.
 */
const ID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

describe('HQ identifiers', () => {
  it.each<[string, Parameters<typeof message>[1], boolean]>([
    ["HQDurable = 'DURABLE'", { durable: true }, true],
    ["HQDurable = 'DURABLE'", { durable: false }, false],
    ["HQDurable = 'NON_DURABLE'", { durable: false }, true],
    // HQDurable's values are not JMSDeliveryMode's.
    ["HQDurable = 'PERSISTENT'", { durable: true }, false],
    ['HQPriority = 7', { priority: 7 }, true],
    ['HQPriority > 4', { priority: 3 }, false],
    ['HQTimestamp = 1700000000123', { timestamp: 1700000000123 }, true],
    ['HQExpiration = 0', {}, true],
    ['HQExpiration > 1700000000000', { expiration: 1700000060000 }, true],
    [`HQUserID = 'ID:${ID}'`, { userId: ID }, true],
    [`HQUserID = '${ID}'`, { userId: ID }, false],
    ["HQUserID LIKE 'ID:1b4e%'", { userId: ID }, true],
    // HornetQ concatenates a missing id: 'ID:null', never NULL.
    ["HQUserID = 'ID:null'", { userId: null }, true],
    ['HQUserID IS NULL', { userId: null }, false],
  ])('%s on %j → %s', (selector, headers, expected) => {
    expect(matches(selector, message({}, headers))).toBe(expected);
  });

  it('HQSize is the message’s encoded size (what HornetQ’s getEncodeSize gives)', () => {
    const m = message({ colour: 'red' });
    m.body = Buffer.alloc(100);
    const size = m.encodedSize();
    expect(size).toBeGreaterThan(100);
    expect(matches(`HQSize = ${size}`, m)).toBe(true);
    expect(matches(`HQSize > ${size}`, m)).toBe(false);
    expect(matches('HQSize BETWEEN 100 AND 100000', m)).toBe(true);
  });

  it('a header wins over a property of the same name, as in HornetQ', () => {
    expect(matches('HQPriority = 9', message({ HQPriority: 9 }, { priority: 4 }))).toBe(false);
  });

  it('an HQ-prefixed name that is no header is a property', () => {
    expect(matches("HQColour = 'red'", message({ HQColour: 'red' }))).toBe(true);
  });
});

describe('identifiers nothing defines', () => {
  it.each(['__HQX=-1', '_HQX=-1'])(
    'the marker filter %s is UNKNOWN on any message, so it selects nothing',
    (filter) => {
      for (const m of [message(), message({ color: 'red' }, { durable: true, priority: 9 })]) {
        expect(truthOf(filter, m)).toBe('UNKNOWN');
      }
    },
  );

  it('an absent property compares as NULL (UNKNOWN), as HornetQ evaluates it', () => {
    expect(truthOf("nothing = 'x'", message())).toBe('UNKNOWN');
    expect(truthOf("nothing <> 'x'", message())).toBe('UNKNOWN');
    expect(truthOf('nothing IS NULL', message())).toBe('TRUE');
  });
});
