// Refuses import cycles in src/, decorators/, container/ and nestjs/ — type-only imports, re-exports,
// `import()` types, dynamic imports and `require` included (eslint's import-x/no-cycle skips
// type-only imports). Parses with the TypeScript compiler (no type check); part of `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['src', 'decorators', 'container', 'nestjs'];

/** Every .ts file (not .d.ts) below `folder`. */
function tsFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = FOLDERS.flatMap((f) => tsFiles(join(root, f)));
const known = new Set(files);

/** The file a relative specifier names, or undefined (a package, or outside the folders). */
function target(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
}

/** The module specifiers one file names, of every kind of import. */
function specifiers(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = [];
  const literal = (node) =>
    node !== undefined && ts.isStringLiteral(node) ? node.text : undefined;
  const visit = (node) => {
    let text;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      text = literal(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      text = literal(node.argument.literal);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      text = literal(node.arguments[0]);
    if (text !== undefined) found.push(text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const edges = new Map(
  files.map((file) => [
    file,
    [...new Set(specifiers(file).map((s) => target(file, s)))].filter(Boolean),
  ]),
);

// Tarjan's strongly connected components: each component of more than one file is a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function connect(file) {
  index.set(file, counter);
  low.set(file, counter);
  counter++;
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file)) {
    if (!index.has(next)) {
      connect(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || edges.get(file).includes(file)) cycles.push(component);
}
for (const file of files) if (!index.has(file)) connect(file);

if (cycles.length === 0) {
  console.log(`import-cycles: none in ${files.length} files`);
} else {
  for (const cycle of cycles) {
    const members = new Set(cycle);
    console.error(`import cycle of ${cycle.length} files:`);
    for (const file of cycle.sort())
      for (const next of edges.get(file))
        if (members.has(next))
          console.error(`  ${relative(root, file)} -> ${relative(root, next)}`);
  }
  process.exitCode = 1;
}
