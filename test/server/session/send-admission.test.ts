import { HornetQException } from '../../../src/core/protocol';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import { PropertyKind } from '../../../src/core/protocol/typed-properties';
import type { AddressFullPolicy } from '../../../src/server/postoffice/address-settings';
import { AddressSize } from '../../../src/server/postoffice/address-size';
import type { PreparedRoute } from '../../../src/server/postoffice/post-office';
import { MAX_CHUNK_BYTES, largestDeliveryFrameBytes } from '../../../src/server/session/delivery-frames';
import { SendAdmission } from '../../../src/server/session/send-admission';

const MAX_FRAME_BYTES = 2048;

function message(propertyBytes: number, bodyBytes = 0): CoreMessage {
  const built = new CoreMessage();
  built.address = 'jms.queue.q';
  built.properties.set('p', { kind: PropertyKind.STRING, value: 'v'.repeat(propertyBytes) });
  built.body = Buffer.alloc(bodyBytes);
  return built;
}

/** Admission over one address under `policy`; `moveCopies` are what a dead-letter move would make. */
function admissionFor(
  policy: AddressFullPolicy,
  moveCopies: (route: PreparedRoute) => CoreMessage[] = () => [],
) {
  const addressSize = new AddressSize('jms.queue.q', {
    maxSizeBytes: 100,
    addressFullPolicy: policy,
    maxSizeBytesRejectThreshold: 200,
  });
  const prepared: PreparedRoute[] = [];
  const admission = new SendAdmission(
    {
      checkName: (what, name) => {
        if (name.length > 32) throw new HornetQException('GENERIC_EXCEPTION', `${what} too long`);
      },
      addressSize: () => addressSize,
      prepare: (sent) => {
        const route = { message: sent, queues: [], address: sent.address, duplicateId: null };
        prepared.push(route);
        return route;
      },
      moveGrowthBound: (route) =>
        moveCopies(route).reduce((most, copy) => Math.max(most, copy.encodedSize()), 0),
      largestMoveCopies: moveCopies,
    },
    () => MAX_FRAME_BYTES,
  );
  return { admission, addressSize, prepared };
}

function refusal(admit: () => unknown): HornetQException {
  try {
    admit();
  } catch (error) {
    if (error instanceof HornetQException) return error;
    throw error;
  }
  throw new Error('admitted');
}

describe('SendAdmission', () => {
  it('admits a message to an address with room and returns its route', () => {
    const { admission, prepared } = admissionFor('FAIL');
    const sent = message(10);
    expect(admission.admit(sent)).toBe(prepared[0]);
    expect(prepared[0]?.message).toBe(sent);
  });

  it('refuses an address name the broker does not keep, before anything is routed', () => {
    const { admission, prepared } = admissionFor('FAIL');
    const sent = message(10);
    sent.address = 'x'.repeat(33);
    expect(refusal(() => admission.admit(sent)).message).toBe('address too long');
    expect(prepared).toEqual([]);
  });

  it('refuses a send to a full FAIL address, naming the address', () => {
    const { admission, addressSize } = admissionFor('FAIL');
    addressSize.add(100);
    const error = refusal(() => admission.admit(message(10)));
    expect(error.code).toBe('ADDRESS_FULL');
    expect(error.message).toBe('Address jms.queue.q is full');
  });

  it('refuses a BLOCK send only past the reject threshold, naming it and the setting', () => {
    const { admission, addressSize } = admissionFor('BLOCK');
    addressSize.add(200);
    expect(admission.admit(message(10))).not.toBeNull();
    addressSize.add(1);
    const error = refusal(() => admission.admit(message(10)));
    expect(error.code).toBe('ADDRESS_FULL');
    expect(error.message).toContain(
      'holds 201 bytes, over its reject threshold of 200 (max-size-bytes-reject-threshold)',
    );
  });

  it('drops a send to a full DROP address: no route, no error', () => {
    const { admission, addressSize, prepared } = admissionFor('DROP');
    addressSize.add(100);
    expect(admission.admit(message(10))).toBeNull();
    expect(prepared).toEqual([]);
  });

  it('refuses a message whose delivery frame would exceed the frame cap, saying how large it would be', () => {
    const { admission } = admissionFor('PAGE');
    const tooLarge = message(MAX_FRAME_BYTES);
    const error = refusal(() => admission.admit(tooLarge));
    expect(error.message).toContain(
      `would take a frame of ${largestDeliveryFrameBytes(tooLarge)} bytes, over the maximum frame size of ${MAX_FRAME_BYTES} bytes`,
    );
  });

  it('admits a body of MAX_CHUNK_BYTES or more (every consumer gets it in chunks) whose properties fit', () => {
    const { admission } = admissionFor('PAGE');
    expect(admission.admit(message(10, MAX_CHUNK_BYTES))).not.toBeNull();
  });

  it('refuses a body under MAX_CHUNK_BYTES that does not fit whole: a consumer may take it whole', () => {
    const { admission } = admissionFor('PAGE');
    expect(refusal(() => admission.admit(message(10, 2 * MAX_FRAME_BYTES))).message).toContain(
      'over the maximum frame size',
    );
  });

  it('refuses a message that fits as sent but not once moved to a dead-letter or expiry address', () => {
    const { admission } = admissionFor('PAGE', (route) => {
      const moved = route.message.copy();
      moved.properties.set('_HQ_ORIG_ADDRESS', {
        kind: PropertyKind.STRING,
        value: 'o'.repeat(MAX_FRAME_BYTES),
      });
      return [moved];
    });
    const error = refusal(() => admission.admit(message(10)));
    expect(error.message).toContain('once moved to a dead-letter or expiry address');
  });
});
