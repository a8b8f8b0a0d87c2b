/**
 * `golem init [dir] --template <plain|decorated|nest> [--name <pkg>] [--golem <spec>] [--yes]`:
 * scaffolds a new project — package.json (build, test, start), a complete tsconfig, an agent, a
 * node:test test and an offline main on `TestModel` — into an empty or new directory. Asks for
 * what is missing when stdin is a terminal; with the flags, or `--yes` (defaults), it asks
 * nothing. The bin (`bin/golem.js`) calls {@link main}; tests call {@link initCommand}.
 *
 * Loads only Node's own modules: it runs before the project has any of golem's peers.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { onlyOnce, readArgs, UsageError } from '../../decorators/cli/args';
import {
  dependencyRanges,
  packageRoot,
  renderTemplate,
  TEMPLATE_SUMMARIES,
  TEMPLATES,
  type GolemPackageJson,
  type TemplateName,
} from './init-templates';

export { UsageError };

/** The parsed command line of `golem init`. */
export interface InitArgs {
  /** The directory to create the project in (relative to the working directory). */
  readonly dir: string | undefined;
  readonly template: TemplateName | undefined;
  /** The package name; default derived from the directory's name. */
  readonly name: string | undefined;
  /** How the project depends on golem (`--golem`); default `^<this golem's version>`. */
  readonly golem: string | undefined;
  /** Take the defaults of what is missing instead of asking. */
  readonly yes: boolean;
  readonly help: boolean;
}

/** The directory `--yes` uses when none is given. */
export const DEFAULT_DIR = 'golem-app';
/** The template `--yes` (or Enter at the prompt) uses when none is given. */
export const DEFAULT_TEMPLATE: TemplateName = 'decorated';

/** Usage text of `golem init`. */
export const INIT_USAGE = `usage: golem init [dir] --template <plain|decorated|nest> [--name <pkg>] [--golem <spec>] [--yes]

Creates a new project in dir (new, or empty): package.json with build, test and start scripts,
a complete tsconfig.json, an agent in src/, a test (node:test on tsc's output) and a main that
runs offline on TestModel (or on a provider when its key is set). Then: cd dir && npm install &&
npm test && npm start.

  --template <t>  ${TEMPLATES.map((t) => `${t}: ${TEMPLATE_SUMMARIES[t]}`).join('\n                  ')}
  --name <pkg>    the package name (default: from the directory's name)
  --golem <spec>  the golem dependency: a version range, a packed tarball (golem-x.y.z.tgz, a
                  path), a git URL (git+https://…), … (default: ^<this golem's version>)
  -y, --yes       ask nothing: ${DEFAULT_TEMPLATE} and ./${DEFAULT_DIR} unless given
  -h, --help      show this help

In a terminal, what the flags leave out is asked for.`;

/** Whether `value` names a template. */
export function isTemplate(value: string): value is TemplateName {
  return (TEMPLATES as readonly string[]).includes(value);
}

/** Parses `argv` (the arguments after `init`). Throws {@link UsageError}. */
export function parseInitArgs(argv: readonly string[]): InitArgs {
  const positional: string[] = [];
  let template: TemplateName | undefined;
  let name: string | undefined;
  let golem: string | undefined;
  let yes = false;
  let help = false as boolean; // set inside the readArgs callback
  readArgs(argv, ({ arg, flag, value: given }) => {
    const value = (): string => given({ dashes: false }).trim();
    switch (flag) {
      case '-t':
      case '--template': {
        onlyOnce('--template', template);
        const given = value();
        if (!isTemplate(given))
          throw new UsageError(
            `unknown template "${given}"; choose one of: --template ${TEMPLATES.join(', ')}`,
          );
        template = given;
        break;
      }
      case '--name':
        onlyOnce(flag, name);
        name = value();
        break;
      case '--golem':
        onlyOnce(flag, golem);
        golem = value();
        break;
      case '-y':
      case '--yes':
        yes = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-') && arg.length > 1) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  });
  if (positional.length > 1)
    throw new UsageError(
      `one directory at most, got ${positional.length}: ${positional.map((p) => `"${p}"`).join(' ')}`,
    );
  const dir = positional[0];
  if (dir !== undefined && dir.trim() === '') throw new UsageError('the directory is empty');
  return { dir, template, name, golem, yes, help };
}

/** Why `name` is not a valid npm package name, or `undefined` when it is. */
export function packageNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > 214) return 'it is longer than 214 characters';
  if (name !== name.toLowerCase()) return 'it has capital letters';
  if (name.trim() !== name) return 'it has leading or trailing spaces';
  if (!/^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name))
    return 'use lowercase letters, digits, "-", "." and "_" (optionally @scope/name), not starting with "." or "_"';
  if (name === 'golem') return 'a project named golem cannot depend on golem';
  return undefined;
}

/** A valid package name from a directory name (`My App` gives `my-app`). */
export function packageNameFrom(dirName: string): string {
  const name = dirName
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[-._~]+/, '')
    .replace(/-+$/, '')
    .slice(0, 214);
  return name === '' || packageNameProblem(name) !== undefined ? DEFAULT_DIR : name;
}

/**
 * The dependency spec of golem in the new package.json: `--golem` as npm understands it, with a
 * local path (a tarball or a folder) made absolute `file:` (the project is elsewhere); `golem@x`
 * is `x`. Without `--golem`, `^<version>`.
 */
export function golemDependencySpec(given: string | undefined, version: string, cwd: string) {
  if (given === undefined) return `^${version}`;
  if (given.startsWith('golem@')) return given.slice('golem@'.length);
  if (given.startsWith('file:')) {
    const path = given.slice('file:'.length);
    return `file:${isAbsolute(path) ? path : resolve(cwd, path)}`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(given)) return given; // git+https:, github:, https:, npm:, …
  const looksLikePath =
    /^(\.{1,2}[\\/]|[\\/]|~[\\/])/.test(given) ||
    /\.(tgz|tar\.gz|tar)$/.test(given) ||
    existsSync(resolve(cwd, given));
  if (!looksLikePath) return given; // a version or range: 0.1.0, ^0.1.0, latest
  const path = given.startsWith('~') ? join(process.env.HOME ?? '~', given.slice(2)) : given;
  return `file:${resolve(cwd, path)}`;
}

/** golem's own package.json (found upward from this file: the source or the compiled copy). */
export function readGolemPackage(from: string = __dirname): GolemPackageJson {
  return JSON.parse(
    readFileSync(join(packageRoot(from), 'package.json'), 'utf8'),
  ) as GolemPackageJson;
}

/** Where the command writes, what it reads and how it asks; every field has a default. */
export interface InitIO {
  /** Receives each line of normal output; default `process.stdout`. */
  stdout?: (line: string) => void;
  /** Receives each line of error output; default `process.stderr`. */
  stderr?: (line: string) => void;
  /** Resolves the directory and local `--golem` paths; default `process.cwd()`. */
  cwd?: string;
  /** Whether to ask for what is missing; default: stdin and stdout are terminals. */
  interactive?: boolean;
  /** Asks one question and resolves to the answer line; default readline on stdin/stdout. */
  ask?: (question: string) => Promise<string>;
  /** golem's package.json (version, peer ranges); default read from the installed package. */
  golemPackage?: GolemPackageJson;
}

/** Exit codes: 0 created, 1 the files could not be written, 2 usage errors and refusals. */
export const INIT_EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 });

/** Asking on the terminal: one readline interface; a closed stdin ends the questions. */
function terminalAsker(): { ask: (question: string) => Promise<string>; close: () => void } {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  let closed = false;
  const ended = new Promise<never>((_, reject) =>
    rl.once('close', () => {
      closed = true;
      reject(new UsageError('the input ended before every question was answered'));
    }),
  );
  ended.catch(() => undefined);
  return {
    ask: (question) =>
      closed
        ? Promise.reject(new UsageError('the input ended before every question was answered'))
        : Promise.race([
            new Promise<string>((done) => {
              rl.question(question, done);
            }),
            ended,
          ]),
    close: () => {
      rl.close();
    },
  };
}

/** The entries of `dir` that make it non-empty for a new project (`.git` alone is fine). */
function blockingEntries(dir: string): string[] {
  return readdirSync(dir).filter((entry) => entry !== '.git');
}

/** Why the project cannot be created at `target`, or `undefined`. */
function targetProblem(target: string, shown: string): string | undefined {
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory())
    return `${target} exists and is not a directory; choose another path: golem init <new-dir> …`;
  const entries = blockingEntries(target);
  if (entries.length === 0) return undefined;
  const listed = entries.slice(0, 5).join(', ') + (entries.length > 5 ? ', …' : '');
  return (
    `${target} is not empty (${listed}); golem init writes only into a new or empty directory: ` +
    `choose another (golem init ${shown === '.' ? 'my-agent' : `${shown}-2`} …) or empty this one`
  );
}

interface Answers {
  readonly dir: string;
  readonly template: TemplateName;
  readonly name: string | undefined;
}

/** Asks for what the flags left out, in order: the directory, the template, the name. */
async function askMissing(args: InitArgs, ask: (q: string) => Promise<string>): Promise<Answers> {
  let dir = args.dir;
  while (dir === undefined) {
    const answer = (await ask(`Project directory (${DEFAULT_DIR}): `)).trim();
    dir = answer === '' ? DEFAULT_DIR : answer;
  }
  let template = args.template;
  const choices = TEMPLATES.map(
    (t, index) => `  ${index + 1}) ${t.padEnd(9)} ${TEMPLATE_SUMMARIES[t]}`,
  ).join('\n');
  while (template === undefined) {
    const answer = (
      await ask(
        `Template:\n${choices}\nChoose 1-${TEMPLATES.length} or a name (${DEFAULT_TEMPLATE}): `,
      )
    )
      .trim()
      .toLowerCase();
    const byNumber = /^\d+$/.test(answer) ? TEMPLATES[Number(answer) - 1] : undefined;
    template =
      answer === '' ? DEFAULT_TEMPLATE : (byNumber ?? (isTemplate(answer) ? answer : undefined));
  }
  let name = args.name;
  const fallback = packageNameFrom(basename(resolve(dir)));
  while (name === undefined) {
    const answer = (await ask(`Package name (${fallback}): `)).trim();
    const candidate = answer === '' ? fallback : answer;
    if (packageNameProblem(candidate) === undefined) name = candidate;
  }
  return { dir, template, name };
}

/** Runs the command with `argv` (the arguments after `init`) and returns the exit code. */
export async function initCommand(argv: readonly string[], io: InitIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cwd = io.cwd ?? process.cwd();
  const usage = (message: string): number => {
    err(`golem init: ${message}`);
    return INIT_EXIT.usage;
  };
  let args: InitArgs;
  try {
    args = parseInitArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem init: ${error.message}`);
    err(INIT_USAGE);
    return INIT_EXIT.usage;
  }
  if (args.help) {
    out(INIT_USAGE);
    return INIT_EXIT.ok;
  }
  if (args.name !== undefined) {
    const problem = packageNameProblem(args.name);
    if (problem !== undefined)
      return usage(`--name "${args.name}" is not a valid package name: ${problem}`);
  }
  if (args.dir !== undefined) {
    const problem = targetProblem(resolve(cwd, args.dir), args.dir);
    if (problem !== undefined) return usage(problem);
  }

  const interactive =
    !args.yes &&
    (args.dir === undefined || args.template === undefined) &&
    (io.interactive ?? (process.stdin.isTTY && process.stdout.isTTY));
  let answers: Answers;
  if (interactive) {
    const terminal = io.ask === undefined ? terminalAsker() : undefined;
    try {
      answers = await askMissing(
        args,
        io.ask ?? (terminal as ReturnType<typeof terminalAsker>).ask,
      );
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return usage(
        `${error.message}; pass the flags instead: golem init <dir> --template <t> --yes`,
      );
    } finally {
      terminal?.close();
    }
  } else {
    if (args.template === undefined && !args.yes)
      return usage(
        `no template given; pass --template ${TEMPLATES.join('|')} (or --yes for ${DEFAULT_TEMPLATE})`,
      );
    if (args.dir === undefined && !args.yes)
      return usage(
        `no directory given; pass one: golem init <dir> … (or --yes for ./${DEFAULT_DIR})`,
      );
    answers = {
      dir: args.dir ?? DEFAULT_DIR,
      template: args.template ?? DEFAULT_TEMPLATE,
      name: args.name,
    };
  }

  const target = resolve(cwd, answers.dir);
  const problem = targetProblem(target, answers.dir);
  if (problem !== undefined) return usage(problem);
  const name = answers.name ?? packageNameFrom(basename(target));
  const pkg = io.golemPackage ?? readGolemPackage();
  const files = renderTemplate({
    template: answers.template,
    name,
    golemSpec: golemDependencySpec(args.golem, pkg.version, cwd),
    ranges: dependencyRanges(pkg),
  });
  try {
    for (const [path, content] of Object.entries(files)) {
      const file = join(target, ...path.split('/'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content, { flag: 'wx' }); // never overwrite
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    err(`golem init: could not write the project in ${target}: ${reason}`);
    return INIT_EXIT.failed;
  }

  const fromCwd = relative(cwd, target);
  const shown = fromCwd === '' ? '.' : fromCwd.startsWith('..') ? target : fromCwd;
  out(`Created ${name} (template ${answers.template}) in ${target}:`);
  for (const path of Object.keys(files).sort()) out(`  ${path}`);
  out('');
  out('Next:');
  if (shown !== '.') out(`  cd ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`);
  out('  npm install');
  out('  npm test     # offline, on TestModel');
  out(
    `  npm start    # ${answers.template === 'nest' ? 'serves POST /weather on port 3000' : 'one run, offline unless a provider key is set'}`,
  );
  if (args.golem === undefined)
    out(
      `golem is golem@^${pkg.version} from the npm registry; to install it from a packed tarball or a git URL instead, pass --golem <path-or-url>`,
    );
  return INIT_EXIT.ok;
}

/** The bin's entry point: runs `golem init` with `argv` and returns the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return initCommand(argv);
}
