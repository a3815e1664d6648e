// What the published declarations expose that a user cannot name: a type that a public member's
// signature uses, declared in this package but exported from none of its entry points (API
// Extractor calls it a "forgotten export"). A user meets such a type in an editor's tooltip,
// cannot import it, and it changes without notice. Used by test/package/ on the packed package.
//   node scripts/public-types.mjs dist/index.d.ts dist/client.d.ts ...   (one line per forgotten type)
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** [{ type, file, usedBy }] for every forgotten type used by the exports of `entryFiles` (.d.ts or .d.mts). */
export function forgottenTypes(entryFiles) {
  const program = ts.createProgram(entryFiles, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const exported = new Set(
    entryFiles.flatMap((file) =>
      checker
        .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))
        .map((s) => unalias(checker, s)),
    ),
  );
  // The entry points sit at the top of the package's build (dist/): what is below it is ours.
  const packageDir = path.dirname(path.resolve(entryFiles[0]));
  const found = new Map();
  const report = (symbol, usedBy) => {
    const declaration = symbol.declarations?.[0];
    if (declaration === undefined || isOutsidePackage(declaration, packageDir) || exported.has(symbol))
      return;
    // Members of an exported enum or constant object (PropertyKind.NULL) are named through it.
    if (symbol.flags & (ts.SymbolFlags.TypeParameter | ts.SymbolFlags.EnumMember | ts.SymbolFlags.Property))
      return;
    if (symbol.flags & ts.SymbolFlags.Variable) return;
    const key = `${symbol.name}@${declaration.getSourceFile().fileName}`;
    if (!found.has(key))
      found.set(key, { type: symbol.name, file: declaration.getSourceFile().fileName, usedBy });
  };
  for (const symbol of exported) {
    for (const declaration of symbol.declarations ?? []) {
      for (const [node, usedBy] of publicParts(declaration, symbol.name))
        visitTypes(node, usedBy, checker, report);
    }
  }
  return [...found.values()];
}

function unalias(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Declared by Node, TypeScript or a dependency (named from there), not by this package. */
function isOutsidePackage(declaration, packageDir) {
  return !path.resolve(declaration.getSourceFile().fileName).startsWith(packageDir + path.sep);
}

/** The parts of a declaration a user sees: every member but private ones, and `extends` clauses. */
function publicParts(declaration, name) {
  if (!ts.isClassDeclaration(declaration) && !ts.isInterfaceDeclaration(declaration))
    return [[declaration, name]];
  const parts = [];
  for (const clause of declaration.heritageClauses ?? []) {
    if (clause.token === ts.SyntaxKind.ExtendsKeyword)
      parts.push(...clause.types.map((t) => [t, `${name} (extends)`]));
  }
  for (const member of declaration.members) {
    const isPrivate = (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Private) !== 0;
    if (isPrivate || (member.name !== undefined && ts.isPrivateIdentifier(member.name))) continue;
    parts.push([member, `${name}.${member.name?.getText() ?? 'constructor'}`]);
  }
  return parts;
}

function visitTypes(node, usedBy, checker, report) {
  const named = referencedName(node);
  if (named !== undefined) {
    const symbol = checker.getSymbolAtLocation(named);
    if (symbol !== undefined) report(unalias(checker, symbol), usedBy);
  }
  ts.forEachChild(node, (child) => visitTypes(child, usedBy, checker, report));
}

function referencedName(node) {
  if (ts.isTypeReferenceNode(node)) return node.typeName;
  if (ts.isExpressionWithTypeArguments(node)) return node.expression;
  if (ts.isImportTypeNode(node)) return node.qualifier;
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const forgotten = forgottenTypes(process.argv.slice(2));
  for (const f of forgotten) process.stdout.write(`${f.type} (${f.file}) used by ${f.usedBy}\n`);
  process.stdout.write(`${forgotten.length} forgotten types\n`);
}
