/**
 * Node 20.4 and later define Symbol.asyncDispose (as Symbol.for('nodejs.asyncDispose')); earlier
 * 20.x releases, which package.json's engines admit, do not. Without it the classes' dispose
 * methods would be keyed 'undefined' and `await using` would throw, so it is defined here, the
 * same symbol Node uses, before any class that has such a method is defined.
 */
if (typeof Symbol.asyncDispose !== 'symbol') {
  Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('nodejs.asyncDispose') });
}

export {};
