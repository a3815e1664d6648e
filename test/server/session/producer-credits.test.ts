import type { Packet } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';
import type { AddressFullPolicy } from '../../../src/server/postoffice/address-settings';
import { AddressSize } from '../../../src/server/postoffice/address-size';
import { MAX_CREDITS, ProducerCredits } from '../../../src/server/session/producer-credits';

const MAX_NAME = 16;

/** Credits over one address of `maxSizeBytes` under `policy`, with names longer than MAX_NAME refused. */
function creditsFor(policy: AddressFullPolicy, maxSizeBytes = 100) {
  const sizes = new Map<string, AddressSize>();
  const addressSize = (address: string): AddressSize => {
    let size = sizes.get(address);
    if (size === undefined) {
      size = new AddressSize(address, {
        maxSizeBytes,
        addressFullPolicy: policy,
        maxSizeBytesRejectThreshold: -1,
      });
      sizes.set(address, size);
    }
    return size;
  };
  const sent: Packet[] = [];
  const credits = new ProducerCredits(
    { acceptsName: (address) => address.length <= MAX_NAME, addressSize },
    (packet) => sent.push(packet),
  );
  return { credits, sent, addressSize };
}

const grant = (address: string, credits: number): Packet => ({
  type: PacketType.SESS_PRODUCER_CREDITS,
  address,
  credits,
});

describe('ProducerCredits', () => {
  it('grants at once while the address has room', () => {
    const { credits, sent } = creditsFor('BLOCK');
    credits.request('a', 10);
    credits.request('a', 5);
    expect(sent).toEqual([grant('a', 10), grant('a', 5)]);
  });

  it('under BLOCK a full address keeps one grant, adding up every request, until room is made', () => {
    const { credits, sent, addressSize } = creditsFor('BLOCK');
    addressSize('a').add(100);
    credits.request('a', 10);
    credits.request('a', 20);
    credits.request('b', 7);
    expect(sent).toEqual([grant('b', 7)]);
    addressSize('a').remove(50);
    expect(sent).toEqual([grant('b', 7), grant('a', 30)]);
  });

  it('caps a waiting grant at what SESS_PRODUCER_CREDITS can carry', () => {
    const { credits, sent, addressSize } = creditsFor('BLOCK');
    addressSize('a').add(100);
    credits.request('a', MAX_CREDITS);
    credits.request('a', MAX_CREDITS);
    addressSize('a').remove(100);
    expect(sent).toEqual([grant('a', MAX_CREDITS)]);
  });

  it('under FAIL a full address answers with fail-credits', () => {
    const { credits, sent, addressSize } = creditsFor('FAIL');
    addressSize('a').add(100);
    credits.request('a', 10);
    expect(sent).toEqual([{ type: PacketType.SESS_PRODUCER_FAIL_CREDITS, address: 'a', credits: 10 }]);
  });

  it('grants credits for a name too long without keeping anything for it (the send is refused instead)', () => {
    const { credits, sent, addressSize } = creditsFor('BLOCK');
    const long = 'x'.repeat(MAX_NAME + 1);
    credits.request(long, 10);
    expect(sent).toEqual([grant(long, 10)]);
    expect(addressSize(long).isIdle).toBe(true);
  });

  it('on close, waiting grants leave their addresses (nothing is kept for a closed session) and are never sent', () => {
    const { credits, sent, addressSize } = creditsFor('BLOCK');
    const size = addressSize('a');
    size.add(100);
    const whenRoom = jest.spyOn(size, 'whenRoom');
    const cancelWaiting = jest.spyOn(size, 'cancelWaiting');
    credits.request('a', 10);
    const waiter = whenRoom.mock.calls[0]?.[0];
    expect(waiter).toBeDefined();
    credits.close();
    expect(cancelWaiting).toHaveBeenCalledWith(new Set([waiter]));
    size.remove(100);
    expect(size.isIdle).toBe(true);
    expect(sent).toEqual([]);
  });
});
