import { REJECT_HEADROOM_BYTES } from '../../../src/server/postoffice/address-settings';
import { AddressSize } from '../../../src/server/postoffice/address-size';

describe('AddressSize', () => {
  it('is never full without a limit', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: -1,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    size.add(1e12);
    expect(size.isFull()).toBe(false);
    const ran = jest.fn();
    size.whenRoom(ran);
    expect(ran).toHaveBeenCalledTimes(1);
  });

  it('is full once it holds max-size-bytes, and has room again below it', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 100,
      addressFullPolicy: 'FAIL',
      maxSizeBytesRejectThreshold: -1,
    });
    expect(size.policy).toBe('FAIL');
    size.add(99);
    expect(size.isFull()).toBe(false);
    size.add(1);
    expect(size.size).toBe(100);
    expect(size.isFull()).toBe(true);
    size.remove(1);
    expect(size.isFull()).toBe(false);
  });

  it('with max-size-bytes 0 is full from the start', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 0,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    expect(size.isFull()).toBe(true);
  });

  it('BLOCK with max-size-bytes 0: waits only while the address holds something (nothing else could make room)', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 0,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    const ran = jest.fn();
    size.whenRoom(ran);
    expect(ran).toHaveBeenCalledTimes(1);
    expect(size.isIdle).toBe(true);
    size.add(10);
    size.whenRoom(ran);
    expect(size.isIdle).toBe(false);
    size.remove(10);
    expect(ran).toHaveBeenCalledTimes(2);
    expect(size.isIdle).toBe(true);
  });

  it('BLOCK: runs an action at once while there is room, else waits until messages leave', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 100,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    const order: string[] = [];
    size.whenRoom(() => order.push('immediate'));
    expect(order).toEqual(['immediate']);

    size.add(150);
    size.whenRoom(() => order.push('first'));
    size.whenRoom(() => order.push('second'));
    expect(order).toEqual(['immediate']);

    size.remove(40); // 110: still full
    expect(order).toEqual(['immediate']);
    size.remove(20); // 90: room
    expect(order).toEqual(['immediate', 'first', 'second']);
  });

  it('BLOCK: an action that fills the address again keeps the later ones waiting, in order', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 100,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    const order: string[] = [];
    size.add(100);
    size.whenRoom(() => {
      order.push('first');
      size.add(50);
    });
    size.whenRoom(() => order.push('second'));
    size.whenRoom(() => order.push('third'));
    size.remove(10);
    expect(order).toEqual(['first']);
    size.remove(60);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('forgets cancelled waiting actions', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 10,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    size.add(10);
    const kept = jest.fn();
    const cancelled = jest.fn();
    size.whenRoom(cancelled);
    size.whenRoom(kept);
    size.cancelWaiting(new Set([cancelled]));
    size.remove(10);
    expect(kept).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('admits sends by policy: FAIL refuses and DROP drops at max-size-bytes, PAGE always accepts', () => {
    const admission = (policy: 'FAIL' | 'DROP' | 'PAGE', bytes: number): string => {
      const size = new AddressSize('a', {
        maxSizeBytes: 100,
        addressFullPolicy: policy,
        maxSizeBytesRejectThreshold: -1,
      });
      size.add(bytes);
      return size.admit();
    };
    expect([admission('FAIL', 99), admission('FAIL', 100)]).toEqual(['accept', 'refuse']);
    expect([admission('DROP', 99), admission('DROP', 100)]).toEqual(['accept', 'drop']);
    expect(admission('PAGE', 1e9)).toBe('accept');
  });

  it('BLOCK accepts a full address (credits hold honest clients back) and refuses only past the reject threshold', () => {
    const size = new AddressSize('a', {
      maxSizeBytes: 100,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: 150,
    });
    size.add(150);
    expect(size.isFull()).toBe(true);
    expect(size.admit()).toBe('accept');
    size.add(1);
    expect(size.admit()).toBe('refuse');
    size.remove(1);
    expect(size.admit()).toBe('accept');
  });

  it('derives the reject threshold from max-size-bytes when it is -1, and has none without a limit', () => {
    const derived = new AddressSize('a', {
      maxSizeBytes: 100,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    expect(derived.rejectThreshold).toBe(100 + REJECT_HEADROOM_BYTES);
    derived.add(100 + REJECT_HEADROOM_BYTES);
    expect(derived.admit()).toBe('accept');
    derived.add(1);
    expect(derived.admit()).toBe('refuse');

    const unlimited = new AddressSize('a', {
      maxSizeBytes: -1,
      addressFullPolicy: 'BLOCK',
      maxSizeBytesRejectThreshold: -1,
    });
    expect(unlimited.rejectThreshold).toBe(-1);
    unlimited.add(1e12);
    expect(unlimited.admit()).toBe('accept');
  });
});
