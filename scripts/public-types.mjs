// What the published declarations of an entry point expose that a user cannot name: a type that a
// public member's signature uses, declared in this package but not exported from that entry point
// (API Extractor calls it a "forgotten export"). A user meets such a type in an editor's tooltip,
// cannot import it, and it changes without notice. Used by test/package/ on the packed package.
//   node scripts/public-types.mjs path/to/index.d.ts   (prints one line per forgotten type)
import { createRequire } from 'node:module';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** [{ type, file, usedBy }] for every forgotten type used by the exports of `entryFile` (a .d.ts or .d.mts). */
export function forgottenTypes(entryFile) {
  const program = ts.createProgram([entryFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(entryFile));
  const exported = new Set(checker.getExportsOfModule(entry).map((s) => unalias(checker, s)));
  const found = new Map();
  const report = (symbol, usedBy) => {
    const declaration = symbol.declarations?.[0];
    if (declaration === undefined || isOutsidePackage(declaration) || exported.has(symbol)) return;
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

function isOutsidePackage(declaration) {
  const file = declaration.getSourceFile().fileName;
  return file.includes('/node_modules/typescript/') || file.includes('/node_modules/@types/');
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
  const forgotten = forgottenTypes(process.argv[2]);
  for (const f of forgotten) process.stdout.write(`${f.type} (${f.file}) used by ${f.usedBy}\n`);
  process.stdout.write(`${forgotten.length} forgotten types\n`);
}
