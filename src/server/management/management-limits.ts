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
  /** The longest filter (selector) a management request may carry. */
  maxFilterLength: 4_096,
});
