import { CONTAINER_ENTRY_PACKAGES, MAIN_ENTRY_PACKAGES, requirePeerPackages } from '../../src/peer-packages';

/** Resolves the names in `present` only, as require.resolve does where the others are not installed. */
function resolverOf(present: readonly string[]): (name: string) => string {
  return (name) => {
    if (present.includes(name)) return `/app/node_modules/${name}/index.js`;
    throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
  };
}

test('an entry point whose packages are installed loads', () => {
  expect(() =>
    requirePeerPackages("'hornetq-js'", MAIN_ENTRY_PACKAGES, resolverOf(MAIN_ENTRY_PACKAGES)),
  ).not.toThrow();
});

test('a missing package is named, every one of them, with the package that brings them', () => {
  let caught: unknown;
  try {
    requirePeerPackages("'hornetq-js/container'", CONTAINER_ENTRY_PACKAGES, resolverOf(['prom-client']));
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  expect(caught).toMatchObject({
    code: 'MODULE_NOT_FOUND',
    missing: ['fast-xml-parser', 'inversify', 'reflect-metadata'],
    message:
      "'hornetq-js/container' loads fast-xml-parser, inversify, reflect-metadata, which the hornetq-js package " +
      "does not install: npm install hornetq-js-server (they come with it), or import 'hornetq-js/client', which needs none",
  });
});

test('in this repository, where every dependency is installed, both lists resolve', () => {
  expect(() => requirePeerPackages('x', CONTAINER_ENTRY_PACKAGES)).not.toThrow();
});
