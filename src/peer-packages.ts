/**
 * The published hornetq-js installs no package: 'hornetq-js/client' loads none. The broker, the
 * registry's XML loaders and the container load some, which come with hornetq-js-server (they are
 * hornetq-js's optional peer dependencies; see CONTRIBUTING.md, Packaging). An entry point that
 * needs them checks first, so that a service that installed hornetq-js alone and imports the
 * broker is told what to install, not only Node's "Cannot find module" from deep in the build.
 */

/** What the main entry point ('hornetq-js') loads: the XML loaders' parser and the broker's metrics. */
export const MAIN_ENTRY_PACKAGES: readonly string[] = ['fast-xml-parser', 'prom-client'];
/** What 'hornetq-js/container' loads besides: inversify and the Reflect API it needs. */
export const CONTAINER_ENTRY_PACKAGES: readonly string[] = [
  ...MAIN_ENTRY_PACKAGES,
  'inversify',
  'reflect-metadata',
];

/**
 * Throws, naming every missing package and how to get them, when one of `packages` cannot be
 * resolved from here. Resolves a fixed list of names; loads nothing.
 */
export function requirePeerPackages(
  entryPoint: string,
  packages: readonly string[],
  resolve: (name: string) => unknown = require.resolve,
): void {
  const missing = packages.filter((name) => !resolvable(name, resolve));
  if (missing.length === 0) return;
  const error = new Error(
    `${entryPoint} loads ${missing.join(', ')}, which the hornetq-js package does not install: ` +
      `npm install hornetq-js-server (they come with it), or import 'hornetq-js/client', which needs none`,
  );
  // Node's code for a module it cannot find, which is what happened.
  throw Object.assign(error, { code: 'MODULE_NOT_FOUND', missing });
}

function resolvable(name: string, resolve: (name: string) => unknown): boolean {
  try {
    resolve(name);
    return true;
  } catch {
    return false;
  }
}
