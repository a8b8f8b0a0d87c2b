'use strict';
/**
 * Where the bench finds Golem: the repository's BUILT output (what `npm pack` ships), never the
 * TypeScript sources. `npm run bench` runs the root build first. `GOLEM_BENCH_DIST=/path/to/dist`
 * points the bench at another build (e.g. a scratch copy with a change being tried).
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.resolve(process.env.GOLEM_BENCH_DIST ?? path.join(ROOT, 'dist'));
const GOLEM = path.join(DIST, 'src', 'core', 'index.js');
const GOLEM_DECORATORS = path.join(DIST, 'decorators', 'index.js');
const CACHE = path.join(__dirname, 'node_modules', '.cache', 'golem-bench');
const DECORATED_SOURCE = path.join(__dirname, 'decorated-agents.ts');
const DECORATED_OUTPUT = path.join(CACHE, 'decorated-agents.js');

/**
 * Transpiles decorated-agents.ts with the repository's TypeScript and compiler options (legacy
 * decorators and decorator metadata, as tsc emits them for users), with the `golem` specifiers
 * pointing at the built dist. Returns the path of the JavaScript, or throws why it cannot.
 */
function buildDecorated() {
  const ts = require(require.resolve('typescript', { paths: [ROOT] }));
  const configPath = path.join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error)
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const source = fs.readFileSync(DECORATED_SOURCE, 'utf8');
  const out = ts.transpileModule(source, {
    fileName: DECORATED_SOURCE,
    compilerOptions: { ...parsed.options, sourceMap: false, declaration: false },
  });
  const js = out.outputText
    .replace(/require\("golem\/decorators"\)/g, `require(${JSON.stringify(GOLEM_DECORATORS)})`)
    .replace(/require\("golem"\)/g, `require(${JSON.stringify(GOLEM)})`);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(DECORATED_OUTPUT, js);
  return DECORATED_OUTPUT;
}

/** Whether the built dist exists (the decorators entry included). */
function builtStatus() {
  return { core: fs.existsSync(GOLEM), decorators: fs.existsSync(GOLEM_DECORATORS) };
}

module.exports = {
  ROOT,
  DIST,
  CACHE,
  GOLEM,
  GOLEM_DECORATORS,
  DECORATED_OUTPUT,
  buildDecorated,
  builtStatus,
};
