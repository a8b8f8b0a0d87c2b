// Keeps the public surface as ADR 0005 decided it; part of `npm run lint`. Fails when
// - package.json `exports` has a wildcard, or an entry tsconfig.json `paths` does not map;
// - an entry point's file uses `export *` (each entry is one explicit list);
// - the root `golem` exports more than 150 names (values and types; a merged name counts once);
// - the entry points together export more than 25 error classes (ADR 0005 §5, §7).
// Reads the sources with the TypeScript checker; prints every finding, then the counts.
// Usage: node scripts/check/public-surface.mjs [project folder]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
// The project checked: this repository, or the folder given as the first argument (the tests).
const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../..'));

const ROOT_BUDGET = 160; // ADR 0005, raised by ADR 0007
const ERROR_CLASS_BUDGET = 25;

const problems = [];
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
if (config.error !== undefined)
  throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
const paths = config.config.compilerOptions.paths;

/** Each public specifier (`golem`, `golem/ui`, …) and its source file. */
const entries = new Map();
for (const key of Object.keys(pkg.exports)) {
  if (key === './package.json') continue;
  if (key.includes('*')) {
    problems.push(
      `package.json exports "${key}": a wildcard makes every folder below it public; name each entry`,
    );
    continue;
  }
  const specifier = key === '.' ? 'golem' : `golem/${key.slice(2)}`;
  const mapped = paths[specifier];
  if (mapped === undefined)
    problems.push(`tsconfig.json paths has no "${specifier}" (package.json exports "${key}")`);
  else entries.set(specifier, join(root, mapped[0]));
}

const program = ts.createProgram([...entries.values()], {
  ...ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root).options,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** Whether `type` (a class instance type) has `Error` among its base classes. */
function isErrorClass(symbol) {
  const declared = checker.getDeclaredTypeOfSymbol(symbol);
  const seen = new Set();
  const queue = [declared];
  while (queue.length > 0) {
    const type = queue.pop();
    if (type === undefined || seen.has(type)) continue;
    seen.add(type);
    if (type.symbol?.name === 'Error' && type !== declared) return true;
    if (type.isClassOrInterface()) queue.push(...checker.getBaseTypes(type));
  }
  return false;
}

const errorClasses = new Map(); // declaration → "specifier: Name"
let rootCount = 0;
for (const [specifier, file] of entries) {
  const source = program.getSourceFile(file);
  if (source === undefined) {
    problems.push(`${specifier}: ${relative(root, file)} does not exist`);
    continue;
  }
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause === undefined)
      problems.push(`${relative(root, file)}: \`export *\` — list each public name (ADR 0005 §2)`);
  }
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source));
  if (specifier === 'golem') rootCount = exported.length;
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(target.flags & ts.SymbolFlags.Class) || !isErrorClass(target)) continue;
    const declaration = target.declarations?.[0];
    if (declaration !== undefined && !errorClasses.has(declaration))
      errorClasses.set(declaration, `${specifier}: ${symbol.name}`);
  }
}

if (rootCount > ROOT_BUDGET)
  problems.push(
    `golem exports ${rootCount} names, over the budget of ${ROOT_BUDGET}: a new name takes the place of one removed, or amends ADR 0005`,
  );
if (errorClasses.size > ERROR_CLASS_BUDGET)
  problems.push(
    `the entry points export ${errorClasses.size} error classes, over the budget of ${ERROR_CLASS_BUDGET} (ADR 0005 §5): ${[...errorClasses.values()].join(', ')}`,
  );

for (const problem of problems) console.error(`public surface: ${problem}`);
console.log(
  `public surface: ${entries.size} entry points; golem ${rootCount}/${ROOT_BUDGET} names; ${errorClasses.size}/${ERROR_CLASS_BUDGET} error classes`,
);
process.exitCode = problems.length > 0 ? 1 : 0;
