import * as client from '../src/client';
import * as container from '../src/container';
import * as index from '../src/index';
import * as server from '../src/server';

/**
 * What the entry points publish at run time. Each lists its exports by name; these are the rules
 * a new name must keep: the main entry point contains the client's and the broker's whole (the
 * same objects, so that `instanceof` and brands agree whichever an application imports), and no
 * entry point publishes what is internal by its kind: defaults, limits and validation stay in
 * the modules that define them (issue 28: `export *` once published validateBrokerConfiguration
 * and MIN_OUTPUT_HIGH_WATER_MARK).
 */

const names = (module: object): string[] => Object.keys(module).sort();

const INTERNAL_KINDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['a default', /^DEFAULT_/],
  ['a limit', /^(MAX|MIN)_/],
  ['validation', /^validate[A-Z]/],
  ['a resolved setting', /^resolved[A-Z]/],
  ['a configuration loader', /^(load|parse)\w*Configuration$/],
  ['a codec', /^(from|to)[A-Z]\w*Message$|^addressOfDestination$|^destinationFromAddress$/],
];

test.each([
  ['client', client],
  ['server', server],
])('the main entry point contains the %s entry point whole, as the same objects', (_name, part) => {
  const main = index as Record<string, unknown>;
  for (const name of names(part))
    expect([name, main[name]]).toEqual([name, (part as Record<string, unknown>)[name]]);
});

test.each([
  ['hornetq-js', index],
  ['hornetq-js/client', client],
  ['hornetq-js/container', container],
])('%s publishes no default, limit, validation, loader or codec', (_name, entry) => {
  const internal = names(entry).flatMap((name) =>
    INTERNAL_KINDS.filter(([, pattern]) => pattern.test(name)).map(([kind]) => `${name} (${kind})`),
  );
  expect(internal).toEqual([]);
});

test('the client entry point publishes nothing of the broker or the naming layer', () => {
  const brokerOrNaming = names(client).filter(
    (name) => name in server || ['EmbeddedJMS', 'InitialContext', 'ConfigurationException'].includes(name),
  );
  expect(brokerOrNaming).toEqual([]);
});
