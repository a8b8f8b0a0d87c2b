/**
 * The `skill_file` tool: reads a text file inside one skill's folder. Path mistakes are ModelRetry
 * raised before any filesystem call; symlinks cannot escape the skill folder; only regular text
 * files are read, capped with a marker.
 */
import { execFileSync } from 'node:child_process';
import * as fsPromises from 'node:fs/promises';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError, ModelRetry } from 'golem';
import { skillFile } from 'golem/tools/skills';
import { call, caught, caughtAs, cleanup, skillMd, tempDir, writeTree } from './support';
import { UnsupportedSkillFileError } from '../../../support/internal-errors';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await tempDir();
  outside = await tempDir();
  await writeTree(outside, { 'secret.txt': 'TOP SECRET' });
  await writeTree(root, {
    'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'Read PDFs.' }),
    'pdf/reference.md': '# Reference\nUse pdftotext.\n',
    'pdf/scripts/extract.py': 'print("hi")\n',
    'pdf/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]),
    'pdf/long.txt': 'x'.repeat(40),
    'csv-tools/SKILL.md': skillMd({ name: 'csv-tools', description: 'CSV.' }),
    'csv-tools/notes.md': 'csv notes',
    'pdf-evil/secret.txt': 'sibling-prefix secret',
  });
  await symlink(join(root, 'pdf-evil', 'secret.txt'), join(root, 'pdf', 'prefix-sibling.txt'));
  await symlink(join(root, 'pdf', 'reference.md'), join(root, 'pdf', 'ref-link.md'));
  await symlink(join(outside, 'secret.txt'), join(root, 'pdf', 'leak.txt'));
  await symlink(outside, join(root, 'pdf', 'out'));
  await symlink(join(root, 'csv-tools', 'notes.md'), join(root, 'pdf', 'sibling.md'));
  await symlink('loop-b', join(root, 'pdf', 'loop-a'));
  await symlink('loop-a', join(root, 'pdf', 'loop-b'));
  execFileSync('mkfifo', [join(root, 'pdf', 'pipe')]);
});
afterAll(() => cleanup(root, outside));

test('the tool is named skill_file and takes a name and a path', () => {
  const tool = skillFile({ root });
  expect([tool.name, tool.schema]).toEqual([
    'skill_file',
    {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill; one of: csv-tools, pdf' },
        path: {
          type: 'string',
          description: 'Path of the file relative to the skill folder, e.g. "reference.md"',
        },
      },
      required: ['name', 'path'],
      additionalProperties: false,
    },
  ]);
});

test.each([
  ['reference.md', '# Reference\nUse pdftotext.\n'],
  ['scripts/extract.py', 'print("hi")\n'],
  ['./scripts/extract.py', 'print("hi")\n'],
  ['ref-link.md', '# Reference\nUse pdftotext.\n'],
])('reads %s exactly', async (path, text) => {
  expect(await call(skillFile({ root }), { name: 'pdf', path })).toBe(text);
});

const example = 'send {"name": "<skill name>", "path": "<file listed in <skill_files>>"}';
const beforeFs: [string, unknown, string][] = [
  [
    'absolute path',
    { name: 'pdf', path: '/etc/passwd' },
    'path "/etc/passwd" is absolute; give a path relative to the skill folder',
  ],
  [
    'traversal',
    { name: 'pdf', path: '../csv-tools/notes.md' },
    'path "../csv-tools/notes.md" contains a ".." segment',
  ],
  [
    'inner traversal',
    { name: 'pdf', path: 'scripts/../../x' },
    'path "scripts/../../x" contains a ".." segment',
  ],
  [
    'backslash traversal',
    { name: 'pdf', path: '..\\..\\x' },
    'path "..\\\\..\\\\x" contains a backslash; use "/" between folders',
  ],
  [
    'drive path',
    { name: 'pdf', path: 'C:x' },
    'path "C:x" is absolute; give a path relative to the skill folder',
  ],
  ['NUL byte', { name: 'pdf', path: 'a\u0000b' }, 'path "a\\u0000b" contains control characters'],
  ['newline', { name: 'pdf', path: 'a\nb' }, 'path "a\\nb" contains control characters'],
  [
    'unknown skill',
    { name: 'docx', path: 'x' },
    'unknown skill "docx"; available skills: csv-tools, pdf',
  ],
  [
    'prototype skill name',
    { name: '__proto__', path: 'x' },
    'unknown skill "__proto__"; available skills: csv-tools, pdf',
  ],
  [
    'missing path',
    { name: 'pdf' },
    `"path" must be a non-empty string; ${example}; available skills: csv-tools, pdf`,
  ],
  [
    'extra argument',
    { name: 'pdf', path: 'x', mode: 'r' },
    `unexpected argument "mode"; send only {"name": "<skill name>", "path": "<file listed in <skill_files>>"}; available skills: csv-tools, pdf`,
  ],
];

test.each(beforeFs)(
  'ADV-17 refused before any filesystem call: %s',
  async (_label, args, reason) => {
    const spies = [
      jest.spyOn(fsPromises, 'realpath'),
      jest.spyOn(fsPromises, 'open'),
      jest.spyOn(fsPromises, 'stat'),
    ];
    const error = await caught(() => call(skillFile({ root }), args));
    expect(ModelRetry.is(error) && error.reason).toBe(reason);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  },
);

test('ADV-17 URL-encoded traversal, "~" and RTLO are literal names, not decoded or expanded', async () => {
  for (const path of ['%2e%2e/csv-tools/notes.md', '~/.ssh/id_rsa', 'a\u202egnp.txt']) {
    const error = await caughtAs(ModelRetry.is, () =>
      call(skillFile({ root }), { name: 'pdf', path }),
    );
    expect(error.reason).toBe(
      `skill "pdf" has no file ${JSON.stringify(path)}; use a path listed in <skill_files>`,
    );
  }
});

const afterResolve: [string, string, string][] = [
  [
    'leaf symlink escaping',
    'leak.txt',
    'path "leak.txt" resolves outside the folder of skill "pdf"',
  ],
  [
    'symlinked ancestor escaping',
    'out/secret.txt',
    'path "out/secret.txt" resolves outside the folder of skill "pdf"',
  ],
  [
    'symlink into a sibling skill',
    'sibling.md',
    'path "sibling.md" resolves outside the folder of skill "pdf"',
  ],
  [
    'symlink into a sibling-prefix folder',
    'prefix-sibling.txt',
    'path "prefix-sibling.txt" resolves outside the folder of skill "pdf"',
  ],
  [
    'missing file',
    'nope.md',
    'skill "pdf" has no file "nope.md"; use a path listed in <skill_files>',
  ],
  [
    'file used as folder',
    'reference.md/x',
    'skill "pdf" has no file "reference.md/x"; use a path listed in <skill_files>',
  ],
  [
    'directory',
    'scripts',
    'path "scripts" is not a regular file; use a path listed in <skill_files>',
  ],
  ['FIFO', 'pipe', 'path "pipe" is not a regular file; use a path listed in <skill_files>'],
  ['symlink loop', 'loop-a', 'path "loop-a" is a symbolic-link loop'],
];

test.each(afterResolve)('ADV-18 refused as a ModelRetry: %s', async (_label, path, reason) => {
  const error = await caught(() => call(skillFile({ root }), { name: 'pdf', path }));
  expect(ModelRetry.is(error) && error.reason).toBe(reason);
});

test('a binary file is an UnsupportedSkillFileError, not a ModelRetry', async () => {
  const error = await caught(() => call(skillFile({ root }), { name: 'pdf', path: 'logo.png' }));
  expect(ModelRetry.is(error)).toBe(false);
  expect(error).toEqual(new UnsupportedSkillFileError('pdf', 'logo.png'));
  expect(error.message).toBe(
    'skills: "logo.png" in skill "pdf" is a binary file; only text files are returned',
  );
});

test('a file longer than maxBytes is cut with a marker', async () => {
  expect(await call(skillFile({ root, maxBytes: 16 }), { name: 'pdf', path: 'long.txt' })).toBe(
    `${'x'.repeat(16)}\n\n[skills: file truncated at 16 bytes]`,
  );
});

test('an already-cancelled signal is reported before anything else', async () => {
  const controller = new AbortController();
  controller.abort();
  const error = await caught(() =>
    call(skillFile({ root }), { name: 'pdf', path: 'x' }, controller.signal),
  );
  expect(CancelledError.is(error)).toBe(true);
});
