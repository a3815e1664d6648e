// npm run build (and npm's prepare, so that an install from git builds): compiles src/ to
// dist/ with tsc, then shapes what is published:
//   - declarations without internals: tsc writes `private x;` for each private field and method,
//     which names internals in the published API and lets editors suggest them, and keeps members
//     the library's own layers share (tagged `@internal`). Each class keeps one `#private;` member
//     instead, as tsc writes for ECMAScript private fields, so that classes stay nominal (a
//     HornetQQueue is not assignable to a HornetQTopic). See publicDeclarations.
//   - ECMAScript module entry points: dist/esm/<entry>.mjs re-export the CommonJS build by name, so
//     that `import` and `require` share one copy of every class (instanceof and brands agree, and
//     one broker's state is not split between two module graphs).
// npm run pack (--pack) then writes the two published packages under build/ (see writePackages).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const require = createRequire(import.meta.url);
const ts = require('typescript');

/** Entry points of package.json's exports map: name → compiled CommonJS file under dist/. */
export const ENTRY_POINTS = { index: 'index.js', client: 'client.js', container: 'container.js' };

function compile() {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

function declarationFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(file);
    return entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/**
 * The text of a declaration file without what a user must not reach: private members (one
 * `#private;` stays), members tagged `@internal` (an internal constructor becomes
 * `private constructor();`: made by the library, not by its users), and `implements` clauses,
 * which check nothing for a user (types are structural) and would name internal interfaces.
 */
export function publicDeclarations(text, fileName = 'x.d.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  const visit = (node) => {
    if (ts.isClassDeclaration(node)) edits.push(...classEdits(node, source, text));
    ts.forEachChild(node, visit);
  };
  visit(source);
  let result = text;
  for (const edit of edits.sort((a, b) => b.from - a.from)) {
    result = result.slice(0, edit.from) + edit.replacement + result.slice(edit.to);
  }
  return result;
}

function classEdits(node, source, text) {
  const edits = [];
  const implementsClause = (node.heritageClauses ?? []).find(
    (c) => c.token === ts.SyntaxKind.ImplementsKeyword,
  );
  if (implementsClause !== undefined) {
    edits.push({ from: implementsClause.getFullStart(), to: implementsClause.getEnd(), replacement: '' });
  }
  const hidden = node.members.filter(
    (m) => isInternal(m) || (isPrivate(m) && !ts.isConstructorDeclaration(m)),
  );
  let marker = !node.members.some((m) => m.name !== undefined && ts.isPrivateIdentifier(m.name));
  for (const member of hidden) {
    // A member goes with its comment and its line; the first private one leaves the marker.
    const start = member.getStart(source);
    const indent = text.slice(text.lastIndexOf('\n', start) + 1, start);
    let replacement = '';
    if (ts.isConstructorDeclaration(member)) replacement = `\n${indent}private constructor();`;
    else if (marker && isPrivate(member)) {
      replacement = `\n${indent}#private;`;
      marker = false;
    }
    edits.push({ from: member.getFullStart(), to: member.getEnd(), replacement });
  }
  return edits;
}

function isPrivate(member) {
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
}

function isInternal(member) {
  return ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

function pruneDeclarations() {
  for (const file of declarationFiles(DIST)) {
    const text = readFileSync(file, 'utf8');
    const pruned = publicDeclarations(text, file);
    if (pruned !== text) writeFileSync(file, pruned);
  }
}

function writeEsmEntryPoints() {
  mkdirSync(path.join(DIST, 'esm'), { recursive: true });
  for (const [name, file] of Object.entries(ENTRY_POINTS)) {
    const names = Object.keys(require(path.join(DIST, file))).filter(
      (n) => n !== '__esModule' && n !== 'default',
    );
    const cjs = `../${file}`;
    writeFileSync(
      path.join(DIST, 'esm', `${name}.mjs`),
      `// Generated by scripts/build.mjs: the CommonJS build's exports, by name.\n` +
        `import cjs from '${cjs}';\n\nexport const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = cjs;\n`,
    );
    writeFileSync(path.join(DIST, 'esm', `${name}.d.mts`), `export * from '${cjs}';\n`);
  }
}

/**
 * What `npm run pack` publishes: two packages from this one source tree, each staged under
 * build/<name>/ and packed to build/<name>-<version>.tgz.
 *   - hornetq-js: the whole build (the client, the broker, the registry, the command's code) with
 *     no dependency. 'hornetq-js/client' loads nothing outside Node, so a service that only
 *     connects installs this package alone. The packages the other entry points and the command
 *     load are optional peer dependencies: named with their ranges, installed by nobody but
 *     hornetq-js-server (pnpm and Yarn resolve them from there too).
 *   - hornetq-js-server: the `hornetq` command (bin/hornetq.js starts hornetq-js/command) and, as
 *     its dependencies, hornetq-js at this exact version and every package of the repository's
 *     dependencies: what `hornetq server`, EmbeddedJMS, InitialContext and the container load.
 * The repository's own package.json stays the development manifest (all dependencies, prepare
 * for installs from git, private so that it is never published by mistake); the published ones
 * are written from it here, so that versions and ranges are never written twice, and carry no
 * scripts: installing them runs nothing.
 */
export function publishedManifests(root) {
  const peers = { ...root.dependencies };
  const common = {
    license: root.license,
    repository: root.repository,
    engines: root.engines,
  };
  const library = {
    name: root.name,
    version: root.version,
    description: root.description,
    ...common,
    keywords: root.keywords,
    main: root.main,
    types: root.types,
    exports: root.exports,
    files: root.files,
    peerDependencies: peers,
    peerDependenciesMeta: Object.fromEntries(Object.keys(peers).map((name) => [name, { optional: true }])),
  };
  const server = {
    name: `${root.name}-server`,
    version: root.version,
    description: `The hornetq command (broker, producer, consumer, queue and registry tools) and the packages ${root.name}'s broker, registry and container load`,
    ...common,
    keywords: root.keywords,
    bin: Object.fromEntries(Object.keys(root.bin).map((command) => [command, `bin/${command}.js`])),
    files: ['bin'],
    dependencies: { [root.name]: root.version, ...root.dependencies },
  };
  return [library, server];
}

/** Files of the hornetq-js-server package kept in the repository: its executable and README. */
const SERVER_SOURCES = path.join(ROOT, 'packages', 'hornetq-js-server');

/** Stages both packages under `out` and packs them there; returns the tarballs' paths. */
export function writePackages(out = path.join(ROOT, 'build')) {
  const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const [library, server] = publishedManifests(root);
  rmSync(out, { recursive: true, force: true });
  const libraryDir = path.join(out, library.name);
  mkdirSync(libraryDir, { recursive: true });
  // What `files` names (npm pack then applies its exclusions), and README.md, which npm always packs.
  const entries = [...root.files.filter((entry) => !entry.startsWith('!')), 'README.md'];
  for (const entry of entries.filter((e) => existsSync(path.join(ROOT, e)))) {
    cpSync(path.join(ROOT, entry), path.join(libraryDir, entry), { recursive: true });
  }
  const serverDir = path.join(out, server.name);
  cpSync(SERVER_SOURCES, serverDir, { recursive: true });
  cpSync(path.join(ROOT, 'LICENSE'), path.join(serverDir, 'LICENSE'));
  for (const [dir, manifest] of [
    [libraryDir, library],
    [serverDir, server],
  ]) {
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // --silent: npm's notices (every file packed) would bury the two lines this prints.
    execFileSync(npm(), ['pack', '--silent', '--pack-destination', out], { cwd: dir, stdio: 'ignore' });
  }
  return [library, server].map((manifest) => path.join(out, `${manifest.name}-${manifest.version}.tgz`));
}

function npm() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

// --shape-only: dist/ was just compiled (the CLI tests' global set-up compiles even with type errors).
// --pack: then the published packages, in build/. --pack-only [--out DIR]: those alone, from the
// dist/ there is (test/package/ packs into a folder of its own while other tests use dist/).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (!args.includes('--pack-only')) {
    if (!args.includes('--shape-only')) compile();
    pruneDeclarations();
    writeEsmEntryPoints();
  }
  if (args.includes('--pack') || args.includes('--pack-only')) {
    const out = args.includes('--out') ? path.resolve(args[args.indexOf('--out') + 1]) : undefined;
    for (const tarball of writePackages(out))
      process.stdout.write(`${path.relative(process.cwd(), tarball)}\n`);
  }
}
