/**
 * Bounds on what one management request can make the broker build: a browse of a queue with a
 * million messages returns a page, never the queue.
 */
export const MANAGEMENT_LIMITS = Object.freeze({
  /** Messages listMessages returns when no limit is given. */
  defaultListLimit: 100,
  /** The most messages one listMessages returns. */
  maxListLimit: 1_000,
  /** Body bytes shown per message when no bodyBytes is given. */
  defaultBodyPreviewBytes: 256,
  /** The most body bytes shown per message. */
  maxBodyPreviewBytes: 4_096,
  /**
   * The most characters of JSON one management-address reply carries for a message list (two
   * bytes each on the wire): the messages that would take it past this are left out, so that a
   * reply fits in a frame of the default size however large the messages' properties.
   */
  maxReplyChars: 2_000_000,
  /** The longest filter (selector) a management request may carry. */
  maxFilterLength: 4_096,
});
