// @ts-check
/**
 * Stage `readme` of the consumer suite: README.md's `## Quick start`, followed as a new user
 * follows it, from the section's own text. Its blocks, in order: the ```sh block that packs
 * golem from a checkout (replaced here by the tarball the `pack` stage made, laid out as
 * `<tmp>/golem/golem-<version>.tgz` so the README's relative path works verbatim), the ```sh
 * block of setup commands (run line by line through a shell in a new folder — npm, and
 * TypeScript and @types/node at the registry's latest, as a user gets them), the ```json
 * tsconfig.json, the ```ts src/main.ts, the ```sh run command and the ```text output, which
 * stdout must match line for line (npm's own `> …` lines and blank lines aside).
 *
 * Three setups: `commonjs` exactly as written, and `nodenext-esm` and `bundler` with the changes
 * the paragraph after the output states — read from its inline code (`npm pkg set …` or
 * `key=value` for package.json, `"option": value` for tsconfig.json), so the README's words
 * are what runs.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pool, run } from './tools.mjs';

/**
 * The setups besides the README's own: the sentence of the variant paragraph that states the
 * changes (its start), and what the result must be, so a misread paragraph fails loudly.
 * @type {{ name: string; sentence?: RegExp; expect?: { type: string; options: Record<string, unknown> } }[]}
 */
export const README_SETUPS = [
  { name: 'commonjs', expect: { type: 'commonjs', options: { module: 'commonjs' } } },
  {
    name: 'nodenext-esm',
    sentence: /^ES modules\b/,
    expect: { type: 'module', options: { module: 'nodenext' } },
  },
  {
    name: 'bundler',
    sentence: /^A bundler\b/,
    expect: { type: 'module', options: { module: 'esnext', moduleResolution: 'bundler' } },
  },
];

const HEADING = '## Quick start';
/** File names the variant paragraph mentions as places, not changes. */
const PLACES = new Set(['tsconfig.json', 'package.json', 'src/main.ts']);
const STEP_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 180_000;

/**
 * @typedef {object} QuickStart
 * @property {string[]} setup    the setup block's commands
 * @property {string} tsconfig   tsconfig.json as written
 * @property {string} main       src/main.ts
 * @property {string} command    the run block
 * @property {string[]} expected the output block's lines
 * @property {string[]} tarballs every `golem-<version>.tgz` the section names
 * @property {Record<string, { commands: string[]; options: Record<string, unknown> }>} variants
 */

/**
 * Reads the quick start out of README.md; throws naming what is missing.
 * @param {string} readme the file's text
 * @returns {QuickStart}
 */
export function parseQuickStart(readme) {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.trim() === HEADING);
  if (start < 0) throw new Error(`README.md: no "${HEADING}" heading`);
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  const section = lines.slice(start + 1, end < 0 ? undefined : end).join('\n');

  /** @type {{ lang: string; body: string; end: number }[]} */
  const blocks = [];
  for (const m of section.matchAll(/^```(\w*)\n([\s\S]*?)^```[ \t]*$/gm))
    blocks.push({ lang: m[1] ?? '', body: m[2] ?? '', end: (m.index ?? 0) + m[0].length });
  const order = ['sh', 'sh', 'json', 'ts', 'sh', 'text'];
  const got = blocks.map((b) => b.lang);
  if (got.slice(0, order.length).join(',') !== order.join(','))
    throw new Error(
      `README.md "${HEADING}": expected code blocks ${order.join(', ')} (pack, setup, ` +
        `tsconfig.json, src/main.ts, run, output); found ${got.join(', ') || 'none'}`,
    );
  const [pack, setup, tsconfig, main, command, output] = /** @type {typeof blocks} */ (blocks);
  if (!/\bnpm pack\b/.test(pack.body))
    throw new Error(
      `README.md "${HEADING}": the first block should build golem's tarball (npm pack)`,
    );

  const commands = (/** @type {string} */ body) =>
    body
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));

  // The paragraph right after the output block: the ES module and bundler variants.
  const after =
    section
      .slice(output.end)
      .trim()
      .split(/\n\s*\n/)[0] ?? '';
  const sentences = after.replace(/\s*\n\s*/g, ' ').split(/(?<=\.)\s+(?=[A-Z])/);
  /** @type {QuickStart['variants']} */
  const variants = {};
  for (const setup of README_SETUPS) {
    if (setup.sentence === undefined) continue;
    const sentence = sentences.find((s) => setup.sentence?.test(s));
    if (sentence === undefined)
      throw new Error(
        `README.md "${HEADING}": no sentence starting ${setup.sentence} after the output block ` +
          `(it states the ${setup.name} changes)`,
      );
    variants[setup.name] = parseVariant(sentence, setup.name);
  }
  return {
    setup: commands(setup.body),
    tsconfig: tsconfig.body,
    main: main.body,
    command: commands(command.body).join(' && '),
    expected: output.body.split('\n').filter((l) => l.trim() !== ''),
    tarballs: [...new Set(section.match(/golem-[\w.-]+?\.tgz/g) ?? [])],
    variants,
  };
}

/**
 * The changes one variant sentence states, from its inline code.
 * @param {string} sentence
 * @param {string} name
 */
function parseVariant(sentence, name) {
  /** @type {string[]} */
  const commands = [];
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [, code = ''] of sentence.matchAll(/`([^`]+)`/g)) {
    if (PLACES.has(code)) continue;
    if (/^npm /.test(code)) commands.push(code);
    else if (/^[\w.]+=\S+$/.test(code)) commands.push(`npm pkg set ${code}`);
    else if (/^"\w+"\s*:/.test(code)) Object.assign(options, JSON.parse(`{${code}}`));
    else
      throw new Error(
        `README.md "${HEADING}": the ${name} sentence has \`${code}\`, which the consumer suite ` +
          'cannot apply (it reads `npm …`, `key=value` and `"option": value`)',
      );
  }
  return { commands: [...new Set(commands)], options };
}

/** The environment a user's shell has: npm's per-script variables of this run removed. */
function userEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_(?!config_)|npm_config_local_prefix$|INIT_CWD$)/i.test(key)) env[key] = value;
  return env;
}

/**
 * @typedef {object} SetupResult
 * @property {string} setup
 * @property {boolean} ok
 * @property {number} ms
 * @property {string} [failure]  the setup, the step and the output
 * @property {string} [typescript] the TypeScript version npm installed
 */

/**
 * Runs the README quick start in every setup (at most `parallel` at a time).
 * @param {{ root: string; tmp: string; tarball: string; parallel: number; setups?: string[] }} ctx
 * @returns {Promise<SetupResult[]>}
 */
export async function readmeStage(ctx) {
  const quick = parseQuickStart(readFileSync(join(ctx.root, 'README.md'), 'utf8'));
  const file = basename(ctx.tarball);
  const stale = quick.tarballs.filter((t) => t !== file);
  if (stale.length > 0)
    throw new Error(
      `README.md "${HEADING}" names ${stale.join(', ')}, but npm pack writes ${file}: update the section`,
    );
  const golemDir = join(ctx.tmp, 'golem');
  mkdirSync(golemDir, { recursive: true });
  copyFileSync(ctx.tarball, join(golemDir, file));
  const setups = README_SETUPS.filter((s) => ctx.setups?.includes(s.name) ?? true);
  return pool(
    Math.min(ctx.parallel, 3),
    setups.map((setup) => () => runSetup(ctx.tmp, quick, setup)),
  );
}

/**
 * One setup in `<tmp>/app-<name>`.
 * @param {string} tmp
 * @param {QuickStart} quick
 * @param {(typeof README_SETUPS)[number]} setup
 * @returns {Promise<SetupResult>}
 */
async function runSetup(tmp, quick, setup) {
  const started = Date.now();
  const dir = join(tmp, `app-${setup.name}`);
  mkdirSync(dir, { recursive: true });
  const env = userEnv();
  const fail = (/** @type {string} */ step, /** @type {string} */ output) => ({
    setup: setup.name,
    ok: false,
    ms: Date.now() - started,
    failure: `README quick start, ${setup.name}: ${step}\n${output.trim().slice(-3000)}`,
  });
  const shell = async (/** @type {string} */ line, /** @type {number} */ timeoutMs) => {
    const r = await run('sh', ['-c', line], { cwd: dir, env, timeoutMs });
    const status = r.timedOut ? `timed out after ${timeoutMs / 1000} s` : `exit ${r.code}`;
    return { ...r, ok: r.code === 0, status };
  };

  for (const line of quick.setup) {
    const r = await shell(line, STEP_TIMEOUT_MS);
    if (!r.ok) return fail(`\`${line}\` failed (${r.status}):`, `${r.stdout}\n${r.stderr}`);
  }
  const variant = quick.variants[setup.name] ?? { commands: [], options: {} };
  for (const line of variant.commands) {
    const r = await shell(line, STEP_TIMEOUT_MS);
    if (!r.ok)
      return fail(`variant step \`${line}\` failed (${r.status}):`, `${r.stdout}\n${r.stderr}`);
  }
  /** @type {{ compilerOptions?: Record<string, unknown> }} */
  let tsconfig;
  try {
    tsconfig = JSON.parse(quick.tsconfig);
  } catch (error) {
    return fail('the tsconfig.json block is not JSON:', String(error));
  }
  tsconfig.compilerOptions = { ...tsconfig.compilerOptions, ...variant.options };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    setup.sentence === undefined ? quick.tsconfig : `${JSON.stringify(tsconfig, null, 2)}\n`,
  );
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'main.ts'), quick.main);

  // The setup is what it claims to be (a misread variant paragraph fails here, not silently).
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (setup.expect !== undefined) {
    const wrong = Object.entries(setup.expect.options).filter(
      ([k, v]) => tsconfig.compilerOptions?.[k] !== v,
    );
    if ((pkg.type ?? 'commonjs') !== setup.expect.type || wrong.length > 0)
      return fail(
        'the variant paragraph does not make this setup:',
        `package.json type ${pkg.type}, tsconfig ${JSON.stringify(tsconfig.compilerOptions)}; ` +
          `expected type ${setup.expect.type} and ${JSON.stringify(setup.expect.options)}`,
      );
  }
  let typescript;
  try {
    typescript = JSON.parse(
      readFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), 'utf8'),
    ).version;
  } catch {
    typescript = 'not installed';
  }

  const r = await shell(quick.command, RUN_TIMEOUT_MS);
  const printed = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('> '))
    .map((l) => l.trimEnd());
  const expected = quick.expected.map((l) => l.trimEnd());
  if (!r.ok)
    return {
      ...fail(
        `\`${quick.command}\` failed (${r.status}, TypeScript ${typescript}):`,
        `${r.stdout}\n${r.stderr}`,
      ),
      typescript,
    };
  if (printed.join('\n') !== expected.join('\n'))
    return {
      ...fail(
        `\`${quick.command}\` printed other lines than the README's output block (TypeScript ${typescript}):`,
        `expected:\n  ${expected.join('\n  ')}\nprinted:\n  ${printed.join('\n  ')}\n${r.stderr}`,
      ),
      typescript,
    };
  return { setup: setup.name, ok: true, ms: Date.now() - started, typescript };
}
