import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreMessage } from '../../../src/core/protocol/core-message';
import type { Packet } from '../../../src/core/protocol';
import { PacketType } from '../../../src/core/protocol/packet-type';
import { NodePageFileSystem } from '../../../src/server/paging/node-page-file-system';
import type { JournalFile } from '../../../src/server/storage/journal/journal-file-system';
import {
  AddressSettingsRepository,
  REJECT_HEADROOM_BYTES,
} from '../../../src/server/postoffice/address-settings';
import { AddressSize } from '../../../src/server/postoffice/address-size';
import { PostOffice } from '../../../src/server/postoffice/post-office';
import { ProducerCredits } from '../../../src/server/session/producer-credits';
import { SendAdmission } from '../../../src/server/session/send-admission';
import { InMemoryStorage } from '../../../src/server/storage/in-memory-storage';
import type { StorageManager } from '../../../src/server/storage/storage-manager';
import { waitFor } from '../../support/wait';

/** Page writes wait until the gate is opened: a disk that is slower than the producers. */
class GatedFileSystem extends NodePageFileSystem {
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  openGate(): void {
    this.release();
  }

  override async open(path: string, create: boolean): Promise<JournalFile> {
    const file = await super.open(path, create);
    if (!path.endsWith('.page')) return file;
    const gate = this.gate;
    return {
      path: file.path,
      size: () => file.size(),
      read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
      write: async (buffer, offset, length, position) => {
        await gate;
        await file.write(buffer, offset, length, position);
      },
      datasync: () => file.datasync(),
      truncate: (size) => file.truncate(size),
      close: () => file.close(),
    };
  }
}

describe('PAGE holds producers back while pages wait to be written', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'page-write-backlog-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('credits wait for a sealed page to be written, then are granted', async () => {
    const pageFileSystem = new GatedFileSystem();
    const settings = new AddressSettingsRepository();
    settings.add('#', { maxSizeBytes: 20 * 1024, addressFullPolicy: 'PAGE', pageSizeBytes: 4096 });
    const office = new PostOffice(
      new InMemoryStorage() as unknown as StorageManager,
      settings,
      () => {
        throw new Error('no filters');
      },
      { pagingDirectory: root, pageFileSystem },
    );
    office.createQueue({ name: 'q', address: 'orders', filter: null, durable: false, temporary: false });
    for (let i = 0; office.pagingStats('orders')?.unwrittenPages !== 1; i++) {
      const m = new CoreMessage();
      m.address = 'orders';
      m.body = Buffer.alloc(500, i % 256);
      office.route(office.prepare(m));
    }
    const sent: Packet[] = [];
    const credits = new ProducerCredits(
      { acceptsName: () => true, addressSize: (address) => office.addressSize(address) },
      (packet) => sent.push(packet),
    );
    credits.request('orders', 1000);
    // Still accepted: a producer holding credits sends on, up to the reject headroom.
    expect(office.addressSize('orders').admit()).toBe('accept');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);

    pageFileSystem.openGate();
    await waitFor(() => sent.length > 0, 'the credits');
    expect(sent).toEqual([{ type: PacketType.SESS_PRODUCER_CREDITS, address: 'orders', credits: 1000 }]);
    expect(office.pagingStats('orders')?.unwrittenPages).toBe(0);
    office.stop();
    await office.closePaging();
  });

  it('a client sending without credits is refused once more than the reject headroom waits to be written', () => {
    let backlog = 0;
    const size = new AddressSize(
      'orders',
      { maxSizeBytes: 100, addressFullPolicy: 'PAGE', maxSizeBytesRejectThreshold: -1 },
      () => backlog,
    );
    size.add(500);
    expect(size.admit()).toBe('accept');
    backlog = REJECT_HEADROOM_BYTES;
    expect(size.admit()).toBe('accept');
    backlog = REJECT_HEADROOM_BYTES + 1;
    expect(size.admit()).toBe('refuse');
    const granted = jest.fn();
    size.whenRoom(granted);
    expect(granted).not.toHaveBeenCalled();
    backlog = 0;
    size.releaseIfRoom();
    expect(granted).toHaveBeenCalledTimes(1);
    // Full but written out: PAGE never waits for room, only for writes.
    size.whenRoom(granted);
    expect(granted).toHaveBeenCalledTimes(2);
  });

  it('the refusal says why and what the producer should have done', () => {
    const size = new AddressSize(
      'orders',
      { maxSizeBytes: 100, addressFullPolicy: 'PAGE', maxSizeBytesRejectThreshold: -1 },
      () => REJECT_HEADROOM_BYTES + 1,
    );
    size.add(500);
    const unused = (): never => {
      throw new Error('not reached: the send is refused first');
    };
    const admission = new SendAdmission(
      {
        checkName: () => undefined,
        addressSize: () => size,
        prepare: unused,
        moveGrowthBound: unused,
        largestMoveCopies: unused,
      },
      () => 1024 * 1024,
    );
    const m = new CoreMessage();
    m.address = 'orders';
    expect(() => admission.admit(m)).toThrow(
      `Address orders is paging and more than ${REJECT_HEADROOM_BYTES} bytes of its pages wait to be written; under PAGE a producer must wait for credits`,
    );
  });
});
