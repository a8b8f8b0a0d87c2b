/**
 * The `skill` tool at run time: body, base directory and file list on demand; unknown names and
 * bad arguments as ModelRetry listing the available names; body cap; confinement re-checked on
 * every call; nothing read from the cwd, home or environment.
 */
import { execFileSync } from 'node:child_process';
import * as fsPromises from 'node:fs/promises';
import { rename, symlink, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import { join } from 'node:path';
import { CancelledError, ModelRetry, isCancellation } from 'golem';
import { skills } from 'golem/tools/skills';
import { call, caught, caughtAs, cleanup, skillMd, tempDir, writeTree } from './support';
import { InvalidSkillError } from '../../../support/internal-errors';

let root: string;
let outside: string;
const body = '# PDF\n\nRun `scripts/extract.py` on the file.\n';

beforeAll(async () => {
  root = await tempDir();
  outside = await tempDir();
  await writeTree(outside, { 'secret.txt': 'TOP SECRET' });
  await writeTree(root, {
    'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'Read PDFs.' }, `\n\n${body}`),
    'pdf/reference.md': 'ref',
    'pdf/scripts/extract.py': 'print(1)',
    'pdf/scripts/deep/a/b/c.txt': 'c',
    'pdf/.env': 'KEY=1',
    'pdf/forms/template.txt': 't',
    'csv-tools/SKILL.md': skillMd({ name: 'csv-tools', description: 'CSV.' }, 'Use commas.'),
  });
  await symlink(join(root, 'pdf', 'reference.md'), join(root, 'pdf', 'ref-link.md'));
  await symlink(join(outside, 'secret.txt'), join(root, 'pdf', 'leak.txt'));
  await symlink(outside, join(root, 'pdf', 'outside-dir'));
  execFileSync('mkfifo', [join(root, 'pdf', 'pipe')]);
});
afterAll(() => cleanup(root, outside));

test('a known name returns the body, the base directory and the skill files', async () => {
  const tool = skills({ root });
  expect(await call(tool, { name: 'pdf' })).toBe(
    [
      '<skill_content name="pdf">',
      '# PDF',
      '',
      'Run `scripts/extract.py` on the file.',
      '</skill_content>',
      `<skill_base_dir>${join(root, 'pdf')}</skill_base_dir>`,
      '<skill_files>',
      'forms/template.txt',
      'ref-link.md',
      'reference.md',
      'scripts/deep/a/b/c.txt',
      'scripts/extract.py',
      '</skill_files>',
    ].join('\n'),
  );
});

test('a skill without extra files has an empty file list', async () => {
  expect(await call(skills({ root }), { name: 'csv-tools' })).toBe(
    [
      '<skill_content name="csv-tools">',
      'Use commas.',
      '</skill_content>',
      `<skill_base_dir>${join(root, 'csv-tools')}</skill_base_dir>`,
      '<skill_files>',
      '</skill_files>',
    ].join('\n'),
  );
});

const available = 'available skills: csv-tools, pdf';
const retries: [string, unknown, string][] = [
  ['unknown name', { name: 'docx' }, `unknown skill "docx"; ${available}`],
  ['path-like name', { name: '../pdf' }, `unknown skill "../pdf"; ${available}`],
  ['upper-case variant', { name: 'PDF' }, `unknown skill "PDF"; ${available}`],
  ['constructor', { name: 'constructor' }, `unknown skill "constructor"; ${available}`],
  ['__proto__', { name: '__proto__' }, `unknown skill "__proto__"; ${available}`],
  ['toString', { name: 'toString' }, `unknown skill "toString"; ${available}`],
  ['hasOwnProperty', { name: 'hasOwnProperty' }, `unknown skill "hasOwnProperty"; ${available}`],
  [
    'missing name',
    {},
    `"name" must be a non-empty string; send {"name": "<skill name>"}; ${available}`,
  ],
  [
    'empty name',
    { name: '' },
    `"name" must be a non-empty string; send {"name": "<skill name>"}; ${available}`,
  ],
  [
    'numeric name',
    { name: 3 },
    `"name" must be a non-empty string; send {"name": "<skill name>"}; ${available}`,
  ],
  [
    'extra argument',
    { name: 'pdf', path: 'x' },
    `unexpected argument "path"; send only {"name": "<skill name>"}; ${available}`,
  ],
  [
    'array',
    ['pdf'],
    `the arguments must be a JSON object like {"name": "<skill name>"}; ${available}`,
  ],
  [
    'string',
    'pdf',
    `the arguments must be a JSON object like {"name": "<skill name>"}; ${available}`,
  ],
  ['null', null, `the arguments must be a JSON object like {"name": "<skill name>"}; ${available}`],
];

test.each(retries)('a bad call is a ModelRetry: %s', async (_label, args, reason) => {
  const tool = skills({ root });
  const spies = [jest.spyOn(fsPromises, 'realpath'), jest.spyOn(fsPromises, 'open')];
  const error = await caught(() => call(tool, args));
  expect(ModelRetry.is(error) && error.reason).toBe(reason);
  for (const spy of spies) expect(spy).not.toHaveBeenCalled();
});

test('a body longer than maxBytes is cut at a character boundary with a marker', async () => {
  const dir = await tempDir();
  await writeTree(dir, {
    'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'x' }, 'abcdé-fghij'),
  });
  try {
    // "abcd" + "é" (2 bytes) = 6 bytes; a cap of 5 cannot keep half of "é".
    expect(await call(skills({ root: dir, maxBytes: 5 }), { name: 'pdf' })).toBe(
      [
        '<skill_content name="pdf">',
        'abcd',
        '',
        '[skills: body truncated at 5 bytes]',
        '</skill_content>',
        `<skill_base_dir>${join(dir, 'pdf')}</skill_base_dir>`,
        '<skill_files>',
        '</skill_files>',
      ].join('\n'),
    );
  } finally {
    await cleanup(dir);
  }
});

test('the body is read afresh on each call', async () => {
  const dir = await tempDir();
  await writeTree(dir, { 'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'x' }, 'v1') });
  try {
    const tool = skills({ root: dir });
    await writeFile(join(dir, 'pdf', 'SKILL.md'), skillMd({ name: 'pdf', description: 'x' }, 'v2'));
    expect((await call(tool, { name: 'pdf' })).split('\n')[1]).toBe('v2');
  } finally {
    await cleanup(dir);
  }
});

test('ADV-18 a SKILL.md swapped for an escaping symlink after construction is refused (plain error)', async () => {
  const dir = await tempDir();
  await writeTree(dir, { 'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'x' }) });
  try {
    const tool = skills({ root: dir });
    await rename(join(dir, 'pdf', 'SKILL.md'), join(dir, 'old.md'));
    await symlink(join(outside, 'secret.txt'), join(dir, 'pdf', 'SKILL.md'));
    const error = await caught(() => call(tool, { name: 'pdf' }));
    expect(ModelRetry.is(error)).toBe(false);
    expect(error).toEqual(
      new InvalidSkillError(
        join(dir, 'pdf', 'SKILL.md'),
        'is a symbolic link that resolves outside its skill folder',
      ),
    );
  } finally {
    await cleanup(dir);
  }
});

test('ADV-18 a skill folder swapped for an escaping symlink after construction is refused', async () => {
  const dir = await tempDir();
  await writeTree(dir, { 'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'x' }) });
  await writeTree(outside, {
    'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'evil' }, 'EVIL'),
  });
  try {
    const tool = skills({ root: dir });
    await rename(join(dir, 'pdf'), join(dir, 'gone'));
    await symlink(join(outside, 'pdf'), join(dir, 'pdf'));
    const error = await caughtAs(InvalidSkillError.is, () => call(tool, { name: 'pdf' }));
    expect(error.problem).toBe('is a symbolic link that resolves outside its skill folder');
  } finally {
    await cleanup(dir);
  }
});

test('a skill deleted after construction is a plain error', async () => {
  const dir = await tempDir();
  await writeTree(dir, { 'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'x' }) });
  try {
    const tool = skills({ root: dir });
    await cleanup(join(dir, 'pdf'));
    const error = await caughtAs(InvalidSkillError.is, () => call(tool, { name: 'pdf' }));
    expect(InvalidSkillError.is(error)).toBe(true);
    expect(error.problem).toBe('no longer exists');
  } finally {
    await cleanup(dir);
  }
});

test('an already-cancelled signal is reported before anything else', async () => {
  const tool = skills({ root });
  const controller = new AbortController();
  controller.abort();
  const error = await caught(() => call(tool, { name: 'nope' }, controller.signal));
  expect(CancelledError.is(error)).toBe(true);
  expect(isCancellation(error)).toBe(true);
});

test('construction and calls never consult the cwd, the home directory or the environment', async () => {
  const cwd = jest.spyOn(process, 'cwd');
  const home = jest.spyOn(os, 'homedir');
  const seen: (string | symbol)[] = [];
  const env = process.env;
  process.env = new Proxy(env, {
    get(target, key) {
      seen.push(key);
      return Reflect.get(target, key) as unknown;
    },
  });
  let atConstruction: (string | symbol)[];
  try {
    const tool = skills({ root });
    atConstruction = seen.splice(0);
    await call(tool, { name: 'pdf' });
    await caught(() => call(tool, { name: 'nope' }));
  } finally {
    process.env = env;
  }
  expect(cwd).not.toHaveBeenCalled();
  expect(home).not.toHaveBeenCalled();
  // The yaml parser checks its own debug switches; nothing else is read, and calls read nothing.
  expect([...new Set(atConstruction)].sort()).toEqual(['LOG_STREAM', 'LOG_TOKENS']);
  expect(seen).toEqual([]);
});
