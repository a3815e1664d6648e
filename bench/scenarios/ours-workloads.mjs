// The two workloads every scenario of ours builds on, as measureThroughput specs:
//   non-persistent: non-durable messages, each send() awaited (it resolves once the frame is on
//     the connection, within the producer's credits); the consumer acks cumulatively, batched.
//   persistent: durable messages with block-on-durable-send, `window` sends outstanding (each
//     send() resolves at the broker's confirmation); the consumer acks every message with
//     individualAcknowledge() and has credit for about `prefetch` messages; the producer has
//     credits for `window` messages.
import { consumerWindowBytes } from '../lib/consumer-window.mjs';

export function nonPersistentSpec(options, confirmationWindow = -1) {
  return {
    peer: 'ours',
    server: 'broker.mjs',
    target: 'ours',
    messages: options.npMessages,
    size: options.size,
    timeoutMs: options.timeout * 1000,
    clientEnv: { CONFIRMATION_WINDOW: String(confirmationWindow) },
    extra: { mode: 'np', confirmation_window: confirmationWindow },
  };
}

export function persistentSpec(options, confirmationWindow = -1) {
  return {
    peer: 'ours',
    server: 'broker.mjs',
    target: 'ours',
    messages: options.pMessages,
    size: options.size,
    timeoutMs: options.timeout * 1000,
    clientEnv: {
      CONFIRMATION_WINDOW: String(confirmationWindow),
      DURABLE: '1',
      IN_FLIGHT: String(options.window),
      // Producer credits for `window` messages, so that that many sends can really be in flight
      // (HornetQ's default producer-window-size, 64 KiB, would let about 60 through at a time).
      PRODUCER_WINDOW: String(consumerWindowBytes(options.window, options.size)),
    },
    consumerEnv: {
      ACK: 'individual',
      CONSUMER_WINDOW: String(consumerWindowBytes(options.prefetch, options.size)),
    },
    extra: { mode: 'p', confirmation_window: confirmationWindow, prefetch: options.prefetch },
  };
}
