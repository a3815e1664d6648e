// npm run docs:config: writes the generated sections of docs/reference/configuration.md (the
// connection-factory settings and the broker limits) from the settings tables
// (src/core/client/settings, src/jms/jms-settings.ts, src/server/broker-limit-settings.ts),
// each between its marker comments. test/docs/configuration-reference.test.ts
// fails when the committed page differs from what this writes.
//
// The table and the renderer are TypeScript; they are compiled here in memory, module by module,
// with TypeScript's own transpiler, so that the page can be written without a build.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = path.join(ROOT, 'docs/reference/configuration.md');
const require = createRequire(import.meta.url);
const ts = require('typescript');

require.extensions['.ts'] = (module, file) => {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  });
  module._compile(outputText, file);
};

const { generatedPage } = require(path.join(ROOT, 'test/docs/configuration-reference.ts'));
const before = readFileSync(PAGE, 'utf8');
const after = generatedPage(before, PAGE);
if (after === before) {
  process.stdout.write(`${path.relative(ROOT, PAGE)} is up to date\n`);
} else {
  writeFileSync(PAGE, after);
  process.stdout.write(`${path.relative(ROOT, PAGE)}: generated sections regenerated\n`);
}
