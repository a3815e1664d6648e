// Hot paths (sessions, channels, queues) import PacketType and its kin from their own files:
// compiled to CommonJS, every re-export here is a getter that would run on each use.
// First, before any module defines a class with a Symbol.asyncDispose method.
import './async-dispose';
export * from './buffer-reader';
export * from './buffer-writer';
export * from './core-message';
export * from './error-code';
export * from './retriable-error-codes';
export * from './frame-decoder';
export * from './input-budget';
export * from './hornetq-exception';
export * from './packet-codec';
export * from './packet-type';
export * from './packets';
export * from './protocol-error';
export * from './typed-properties';
export * from './message-header';
export * from './frame-slab';
export * from './large-message-assembler';
export * from './large-body-chunks';
export * from './user-id';
export * from './hq-string';
export * from '../../lang/brand';
export * from './core-error-code';
export * from '../../lang/argument-errors';
