import { OrderedReplies } from '../../../src/server/remoting/ordered-replies';

describe('OrderedReplies', () => {
  it('lets a reply out only after every earlier one, however late that one is ready', () => {
    const written: string[] = [];
    const replies = new OrderedReplies<string>((reply) => written.push(reply));
    const reattach = replies.reserve();
    const create = replies.reserve();
    create('CREATESESSION_RESP');
    expect(written).toEqual([]);
    expect(replies.pending).toBe(2);
    reattach('REATTACH_SESSION_RESP');
    expect(written).toEqual(['REATTACH_SESSION_RESP', 'CREATESESSION_RESP']);
    expect(replies.pending).toBe(0);
  });

  it('writes a reply at once when nothing is ahead of it, and each place only once', () => {
    const written: string[] = [];
    const replies = new OrderedReplies<string>((reply) => written.push(reply));
    const first = replies.reserve();
    first('a');
    first('again');
    replies.reserve()('b');
    expect(written).toEqual(['a', 'b']);
  });
});
