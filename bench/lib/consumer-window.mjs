// Credit in messages, as the peers express it (prefetch, send window), turned into the core
// client's consumerWindowSize or producerWindowSize in bytes: a 1 KiB body to jms.queue.bench arrives as 1075 bytes
// (ReceivedMessage.size), i.e. 51 bytes of headers and properties on top of the body.
const ENCODED_OVERHEAD_BYTES = 51;

export function consumerWindowBytes(prefetchMessages, size) {
  return prefetchMessages * (size + ENCODED_OVERHEAD_BYTES);
}
