/**
 * `golem init`: argument handling, the files each template writes (package.json, tsconfig,
 * sources that import only what golem exports), refusals (a non-empty directory, a bad name),
 * the prompts through an injected `ask`, and the bin's dispatch.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_DIR,
  golemDependencySpec,
  INIT_EXIT,
  initCommand,
  packageNameFrom,
  packageNameProblem,
  parseInitArgs,
  readGolemPackage,
  UsageError,
  type InitIO,
} from '../../../container/cli/init';
import {
  dependencyRanges,
  renderTemplate,
  TEMPLATES,
  type TemplateName,
} from '../../../container/cli/init-templates';

const root = join(__dirname, '..', '..', '..');
const golemPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  exports: Record<string, unknown>;
};

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'golem-init-test-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs the command in `tmp`, non-interactive unless `io` says otherwise. */
async function init(argv: string[], io: InitIO = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = await initCommand(argv, {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    cwd: tmp,
    interactive: false,
    ...io,
  });
  return { exit, stdout, stderr };
}

/** An `ask` answering from a list, recording each question; fails on a question too many. */
function answering(answers: string[]) {
  const questions: string[] = [];
  const ask = (question: string): Promise<string> => {
    questions.push(question);
    const answer = answers.shift();
    return answer === undefined
      ? Promise.reject(new Error(`unexpected question: ${question}`))
      : Promise.resolve(answer);
  };
  return { ask, questions };
}

const read = (...path: string[]) => readFileSync(join(tmp, ...path), 'utf8');
interface PackageJson {
  name: string;
  type: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const readPackage = (dir: string) => JSON.parse(read(dir, 'package.json')) as PackageJson;
const readTsconfig = (dir: string) =>
  JSON.parse(read(dir, 'tsconfig.json')) as {
    compilerOptions: Record<string, unknown>;
    include: string[];
  };

describe('parseInitArgs', () => {
  test('reads the directory, the flags and their = forms', () => {
    expect(
      parseInitArgs(['app', '--template', 'nest', '--name=my-app', '--golem', './g.tgz', '-y']),
    ).toEqual({
      dir: 'app',
      template: 'nest',
      name: 'my-app',
      golem: './g.tgz',
      yes: true,
      help: false,
    });
    expect(parseInitArgs(['-t', 'plain'])).toMatchObject({ dir: undefined, template: 'plain' });
    expect(parseInitArgs(['--help']).help).toBe(true);
  });

  test.each([
    [
      ['--template', 'react'],
      'unknown template "react"; choose one of: --template plain, decorated, nest',
    ],
    [['--template'], '--template needs a value'],
    [['--name', '--yes'], '--name needs a value'],
    [['-t', 'plain', '--template', 'nest'], '--template is given twice'],
    [['--force'], 'unknown option --force'],
    [['a', 'b'], 'one directory at most, got 2: "a" "b"'],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseInitArgs(argv)).toThrow(new UsageError(message));
  });
});

describe('package names and the golem spec', () => {
  test('a valid package name is derived from the directory', () => {
    expect(packageNameFrom('My Weather App!')).toBe('my-weather-app');
    expect(packageNameFrom('.hidden')).toBe('hidden');
    expect(packageNameFrom('***')).toBe(DEFAULT_DIR);
    expect(packageNameFrom('golem')).toBe(DEFAULT_DIR);
  });

  test('invalid names say why', () => {
    expect(packageNameProblem('ok-name')).toBeUndefined();
    expect(packageNameProblem('@scope/ok')).toBeUndefined();
    expect(packageNameProblem('Bad')).toBe('it has capital letters');
    expect(packageNameProblem('has space')).toMatch(/^use lowercase letters/);
    expect(packageNameProblem('_x')).toMatch(/not starting with/);
    expect(packageNameProblem('golem')).toMatch(/cannot depend on golem/);
  });

  test('--golem: a local path becomes an absolute file: spec; ranges and URLs stay', () => {
    const cwd = '/work/app';
    expect(golemDependencySpec(undefined, '0.1.0', cwd)).toBe('^0.1.0');
    expect(golemDependencySpec('golem@^0.2.0', '0.1.0', cwd)).toBe('^0.2.0');
    expect(golemDependencySpec('0.1.0', '0.1.0', cwd)).toBe('0.1.0');
    expect(golemDependencySpec('./golem-0.1.0.tgz', '0.1.0', cwd)).toBe(
      'file:/work/app/golem-0.1.0.tgz',
    );
    expect(golemDependencySpec('golem-0.1.0.tgz', '0.1.0', cwd)).toBe(
      'file:/work/app/golem-0.1.0.tgz',
    );
    expect(golemDependencySpec('../golem', '0.1.0', cwd)).toBe('file:/work/golem');
    expect(golemDependencySpec('file:../golem', '0.1.0', cwd)).toBe('file:/work/golem');
    expect(golemDependencySpec('git+https://example.com/golem.git', '0.1.0', cwd)).toBe(
      'git+https://example.com/golem.git',
    );
    expect(golemDependencySpec('github:owner/golem#main', '0.1.0', cwd)).toBe(
      'github:owner/golem#main',
    );
  });

  test("golem's own package.json is found from the command's folder", () => {
    expect(readGolemPackage(join(root, 'container', 'cli')).version).toBe(golemPackage.version);
  });
});

describe('dependency ranges', () => {
  test("each peer takes the newest alternative of golem's range; the tools golem's pinned version", () => {
    const ranges = dependencyRanges(golemPackage);
    for (const [name, range] of Object.entries(ranges)) {
      const peer = golemPackage.peerDependencies[name];
      if (name === '@nestjs/platform-express') expect(range).toBe(ranges['@nestjs/core']);
      else if (peer !== undefined) expect(peer.split('||').pop()?.trim()).toBe(range);
      else expect(range).toBe(`^${golemPackage.devDependencies[name]}`);
    }
    expect(Object.keys(ranges).sort()).toEqual(
      [
        '@nestjs/common',
        '@nestjs/core',
        '@nestjs/platform-express',
        '@types/node',
        'class-transformer',
        'class-validator',
        'class-validator-jsonschema',
        'inversify',
        'reflect-metadata',
        'rxjs',
        'typescript',
      ].sort(),
    );
  });

  test('a package golem gives no range for is an error naming it', () => {
    const { inversify: _dropped, ...peers } = golemPackage.peerDependencies;
    expect(() => dependencyRanges({ ...golemPackage, peerDependencies: peers })).toThrow(
      "golem's package.json gives no version range for inversify",
    );
  });
});

const FILES: Record<TemplateName, string[]> = {
  plain: ['src/agent.ts', 'src/main.ts', 'test/agent.test.ts'],
  decorated: [
    'src/container.ts',
    'src/main.ts',
    'src/weather.agent.ts',
    'test/weather.agent.test.ts',
  ],
  nest: [
    'src/app.module.ts',
    'src/app.ts',
    'src/main.ts',
    'src/weather/weather.agent.ts',
    'src/weather/weather.controller.ts',
    'src/weather/weather.module.ts',
    'test/weather.test.ts',
  ],
};

const DEPENDENCIES: Record<TemplateName, string[]> = {
  plain: ['golem'],
  decorated: [
    'class-transformer',
    'class-validator',
    'class-validator-jsonschema',
    'golem',
    'inversify',
    'reflect-metadata',
  ],
  nest: [
    '@nestjs/common',
    '@nestjs/core',
    '@nestjs/platform-express',
    'class-transformer',
    'class-validator',
    'class-validator-jsonschema',
    'golem',
    'reflect-metadata',
    'rxjs',
  ],
};

describe.each(TEMPLATES)('the %s template', (template) => {
  test('writes package.json, tsconfig.json, the sources and a test, and says what to run next', async () => {
    const { exit, stdout, stderr } = await init([
      'weather-app',
      '--template',
      template,
      '--golem',
      'golem-0.1.0.tgz',
    ]);
    expect(stderr).toEqual([]);
    expect(exit).toBe(INIT_EXIT.ok);
    const files = ['.gitignore', 'README.md', 'package.json', 'tsconfig.json', ...FILES[template]];
    expect(stdout).toEqual([
      `Created weather-app (template ${template}) in ${join(tmp, 'weather-app')}:`,
      ...files.sort().map((file) => `  ${file}`),
      '',
      'Next:',
      '  cd weather-app',
      '  npm install',
      '  npm test     # offline, on TestModel',
      template === 'nest'
        ? '  npm start    # serves POST /weather on port 3000'
        : '  npm start    # one run, offline unless a provider key is set',
    ]);
    for (const file of files) expect(existsSync(join(tmp, 'weather-app', file))).toBe(true);

    const pkg = readPackage('weather-app');
    expect(pkg.name).toBe('weather-app');
    expect(pkg.type).toBe('commonjs');
    const testFile = (FILES[template].find((file) => file.startsWith('test/')) as string).replace(
      /\.ts$/,
      '.js',
    );
    expect(pkg.scripts).toEqual({
      build: 'tsc -p tsconfig.json',
      test: `npm run build && node --test dist/${testFile}`,
      start: 'npm run build && node dist/src/main.js',
    });
    expect(Object.keys(pkg.dependencies)).toEqual(DEPENDENCIES[template]);
    expect(pkg.dependencies.golem).toBe(`file:${join(tmp, 'golem-0.1.0.tgz')}`);
    const ranges = dependencyRanges(golemPackage);
    for (const name of DEPENDENCIES[template].filter((n) => n !== 'golem'))
      expect(pkg.dependencies[name]).toBe(ranges[name]);
    expect(pkg.devDependencies).toEqual({
      '@types/node': ranges['@types/node'],
      typescript: ranges.typescript,
    });

    const { compilerOptions, include } = readTsconfig('weather-app');
    expect(include).toEqual(['src', 'test']);
    expect(compilerOptions).toMatchObject({
      target: 'ES2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
      outDir: 'dist',
      rootDir: '.',
      strict: true,
    });
    const decorators = {
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
    };
    if (template === 'plain')
      for (const key of Object.keys(decorators)) expect(compilerOptions).not.toHaveProperty(key);
    else expect(compilerOptions).toMatchObject(decorators);
  });

  test('its sources import only entry points and names golem exports', async () => {
    const files = renderTemplate({
      template,
      name: 'x',
      golemSpec: '^0.1.0',
      ranges: dependencyRanges(golemPackage),
    });
    const entryPoints = Object.keys(golemPackage.exports).map((subpath) =>
      subpath === '.' ? 'golem' : `golem/${subpath.slice(2)}`,
    );
    let checked = 0;
    for (const [file, text] of Object.entries(files).filter(([f]) => f.endsWith('.ts'))) {
      for (const [, names, specifier] of text.matchAll(
        /^import \{([^}]*)\} from '(golem(?:\/[^']*)?)';$/gm,
      )) {
        expect({ file, specifier, exported: entryPoints.includes(specifier as string) }).toEqual({
          file,
          specifier,
          exported: true,
        });
        const loaded = (await import(specifier as string)) as Record<string, unknown>;
        for (const name of (names as string).split(',').map((n) => n.trim())) {
          if (name === '' || name.startsWith('type ')) continue;
          expect({ file, specifier, name, defined: loaded[name] !== undefined }).toEqual({
            file,
            specifier,
            name,
            defined: true,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2);
  });
});

describe('refusals', () => {
  test('a non-empty directory is refused, naming the fix, and nothing is written', async () => {
    mkdirSync(join(tmp, 'app'));
    writeFileSync(join(tmp, 'app', 'notes.txt'), 'mine');
    const { exit, stderr } = await init(['app', '--template', 'plain']);
    expect(exit).toBe(INIT_EXIT.usage);
    expect(stderr).toEqual([
      `golem init: ${join(tmp, 'app')} is not empty (notes.txt); golem init writes only into a new or empty directory: choose another (golem init app-2 …) or empty this one`,
    ]);
    expect(read('app', 'notes.txt')).toBe('mine');
    expect(existsSync(join(tmp, 'app', 'package.json'))).toBe(false);
  });

  test('an empty directory, or one holding only .git, is used', async () => {
    mkdirSync(join(tmp, 'app', '.git'), { recursive: true });
    expect((await init(['app', '--template', 'plain'])).exit).toBe(INIT_EXIT.ok);
    expect(readPackage('app').name).toBe('app');
  });

  test('a path that is a file is refused', async () => {
    writeFileSync(join(tmp, 'app'), '');
    const { exit, stderr } = await init(['app', '--template', 'plain']);
    expect(exit).toBe(INIT_EXIT.usage);
    expect(stderr[0]).toBe(
      `golem init: ${join(tmp, 'app')} exists and is not a directory; choose another path: golem init <new-dir> …`,
    );
  });

  test('an invalid --name is refused before anything is written', async () => {
    const { exit, stderr } = await init(['app', '--template', 'plain', '--name', 'My App']);
    expect(exit).toBe(INIT_EXIT.usage);
    expect(stderr).toEqual([
      'golem init: --name "My App" is not a valid package name: it has capital letters',
    ]);
    expect(existsSync(join(tmp, 'app'))).toBe(false);
  });

  test('without a terminal, a missing template or directory is a usage error naming the flag', async () => {
    const noTemplate = await init(['app']);
    expect(noTemplate.exit).toBe(INIT_EXIT.usage);
    expect(noTemplate.stderr).toEqual([
      'golem init: no template given; pass --template plain|decorated|nest (or --yes for decorated)',
    ]);
    const noDir = await init(['--template', 'plain']);
    expect(noDir.stderr).toEqual([
      'golem init: no directory given; pass one: golem init <dir> … (or --yes for ./golem-app)',
    ]);
    expect(existsSync(join(tmp, 'app'))).toBe(false);
  });

  test('a bad flag prints the message and the usage; --help prints the usage', async () => {
    const bad = await init(['--template', 'vue']);
    expect(bad.exit).toBe(INIT_EXIT.usage);
    expect(bad.stderr[0]).toBe(
      'golem init: unknown template "vue"; choose one of: --template plain, decorated, nest',
    );
    expect(bad.stderr[1]).toMatch(/^usage: golem init \[dir\] --template/);
    const help = await init(['--help']);
    expect(help.exit).toBe(INIT_EXIT.ok);
    expect(help.stdout[0]).toMatch(/^usage: golem init/);
    expect(help.stdout.join('\n')).toContain('--golem <spec>');
  });
});

describe('prompts', () => {
  test('--yes takes the defaults and asks nothing', async () => {
    const { ask, questions } = answering([]);
    const { exit } = await init(['--yes'], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.ok);
    expect(questions).toEqual([]);
    expect(readPackage(DEFAULT_DIR).name).toBe(DEFAULT_DIR);
    expect(existsSync(join(tmp, DEFAULT_DIR, 'src', 'weather.agent.ts'))).toBe(true); // decorated
  });

  test('with the directory and the template given, a terminal is asked nothing', async () => {
    const { ask, questions } = answering([]);
    const { exit } = await init(['app', '--template', 'nest'], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.ok);
    expect(questions).toEqual([]);
  });

  test('asks for the directory, the template and the name, taking defaults on Enter', async () => {
    const { ask, questions } = answering(['', '', '']);
    const { exit } = await init([], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.ok);
    expect(questions).toEqual([
      'Project directory (golem-app): ',
      [
        'Template:',
        '  1) plain     an Agent with a tool (golem only; no decorators)',
        '  2) decorated an @Agent class with a @Tool, built by the container (golem/container)',
        '  3) nest      a NestJS app: GolemModule, an agent and a validated controller (golem/nestjs)',
        'Choose 1-3 or a name (decorated): ',
      ].join('\n'),
      'Package name (golem-app): ',
    ]);
    expect(readPackage('golem-app').dependencies).toHaveProperty('inversify');
  });

  test('asks again after an answer that is no template or no valid name', async () => {
    const { ask, questions } = answering(['Weather Bot', 'react', '7', '3', 'Bad Name', 'bot']);
    const { exit } = await init([], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.ok);
    expect(questions.filter((q) => q.startsWith('Template:'))).toHaveLength(3);
    expect(questions.filter((q) => q.startsWith('Package name'))).toEqual([
      'Package name (weather-bot): ',
      'Package name (weather-bot): ',
    ]);
    expect(readPackage('Weather Bot').name).toBe('bot');
    expect(existsSync(join(tmp, 'Weather Bot', 'src', 'app.module.ts'))).toBe(true); // nest
  });

  test('only what the flags left out is asked', async () => {
    const { ask, questions } = answering(['plain', 'my-bot']);
    const { exit } = await init(['bot'], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.ok);
    expect(questions.map((q) => q.split('\n')[0])).toEqual(['Template:', 'Package name (bot): ']);
    expect(readPackage('bot').name).toBe('my-bot');
  });

  test('a prompted directory that is not empty is refused too', async () => {
    mkdirSync(join(tmp, 'taken'));
    writeFileSync(join(tmp, 'taken', 'x'), '');
    const { ask } = answering(['taken', 'plain', '']);
    const { exit, stderr } = await init([], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.usage);
    expect(stderr[0]).toContain(`${join(tmp, 'taken')} is not empty (x)`);
  });

  test('input that ends mid-way is a usage error that names the flags', async () => {
    const ask = () =>
      Promise.reject(new UsageError('the input ended before every question was answered'));
    const { exit, stderr } = await init([], { interactive: true, ask });
    expect(exit).toBe(INIT_EXIT.usage);
    expect(stderr).toEqual([
      'golem init: the input ended before every question was answered; pass the flags instead: golem init <dir> --template <t> --yes',
    ]);
  });
});

describe('golem init from the bin', () => {
  test('bin/golem.js lists init and dispatches to it', () => {
    const golem = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'bin', 'golem.js'), ...args], {
        encoding: 'utf8',
        cwd: tmp,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    expect(golem('--help').stdout).toContain('  init     Scaffold a project');
    const created = golem('init', 'app', '--template', 'plain');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(readPackage('app').dependencies).toEqual({
      golem: `^${golemPackage.version}`,
    });
    expect(created.stdout).toContain(
      `golem is golem@^${golemPackage.version} from the npm registry; to install it from a packed tarball or a git URL instead, pass --golem <path-or-url>`,
    );
  });
});
