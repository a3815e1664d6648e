import { boundedNotes, journalNotes } from '../../../src/server/storage/load-notes';

describe('load notes', () => {
  it('keeps ten notes of a kind and counts the rest', () => {
    const notes = Array.from({ length: 13 }, (_, i) => `note ${i}`);
    expect(boundedNotes(notes.slice(0, 10), 'things')).toEqual(notes.slice(0, 10));
    expect(boundedNotes(notes, 'things')).toEqual([...notes.slice(0, 10), '... and 3 more things']);
  });

  it('says nothing of a load that repaired nothing', () => {
    const clean = {
      files: 1,
      records: 0,
      bytes: 0,
      milliseconds: 0,
      truncatedAt: null,
      skipped: [],
      rolledBackTransactions: 0,
    };
    expect(journalNotes('bindings', clean)).toEqual([]);
  });

  it("names each repair of a journal's load", () => {
    const notes = journalNotes('message', {
      files: 2,
      records: 40,
      bytes: 4096,
      milliseconds: 3,
      truncatedAt: { file: 'hornetq-data-2.hq', offset: 512 },
      skipped: [{ file: 'hornetq-data-1.hq', offset: 64 }],
      rolledBackTransactions: 2,
    });
    expect(notes).toEqual([
      'message journal: torn tail cut at hornetq-data-2.hq:512',
      'message journal: corrupt record skipped at hornetq-data-1.hq:64',
      'message journal: 2 transaction(s) without a commit rolled back',
    ]);
  });
});
