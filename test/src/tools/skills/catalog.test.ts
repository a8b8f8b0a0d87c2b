/**
 * Discovery and validation of skills at construction (spec §26.4): front matter parsed with the
 * yaml package, naming and length rules, first root wins, invalid skills and empty catalogs fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSkillCatalog, skills, skillFile } from 'golem/tools/skills';
import { caught, caughtAs, cleanup, skillMd, tempDir, writeTree } from './support';
import { InvalidSkillError } from '../../../support/internal-errors';
import { skillsConfigError } from '../../../../src/tools/skills/errors';
import { ConfigError } from 'golem';

const dirs: string[] = [];
async function fresh(files: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  await writeTree(dir, files);
  return dir;
}
afterAll(() => cleanup(...dirs));

const pdf = skillMd({ name: 'pdf', description: 'Extract text & tables from <PDF> files.' });
const csv = skillMd({ name: 'csv-tools', description: 'Clean CSV\n  files.' });

test('the skill tool advertises an <available_skills> catalog sorted by folder name', async () => {
  const root = await fresh({
    'pdf/SKILL.md': pdf,
    'csv-tools/SKILL.md': `---\nname: csv-tools\ndescription: |\n  Clean CSV\n  files.\n---\nbody\n`,
  });
  const tool = skills({ root });
  expect(tool.name).toBe('skill');
  expect(tool.description).toBe(
    [
      'Loads an agent skill: specialised instructions, plus the files that come with it.',
      "When a task matches a skill's description, call this tool with the skill's name first, then follow its instructions.",
      '<available_skills>',
      '<skill><name>csv-tools</name><description>Clean CSV files.</description></skill>',
      '<skill><name>pdf</name><description>Extract text &amp; tables from &lt;PDF&gt; files.</description></skill>',
      '</available_skills>',
    ].join('\n'),
  );
  expect(tool.schema).toEqual({
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The skill to load; one of: csv-tools, pdf' },
    },
    required: ['name'],
    additionalProperties: false,
  });
  expect(tool.maxRetries).toBeUndefined();
  expect(tool.timeout).toBeUndefined();
  expect(tool.sequential).toBeUndefined();
});

test('folders without SKILL.md, plain files and dot-folders are skipped', async () => {
  const root = await fresh({
    'pdf/SKILL.md': pdf,
    'notes/readme.md': 'not a skill',
    'loose.md': 'a file',
    '.hidden/SKILL.md': skillMd({ name: 'hidden', description: 'x' }),
  });
  expect([...loadSkillCatalog({ root }).skills.keys()]).toEqual(['pdf']);
});

test('the first root wins when two roots hold a skill of the same name', async () => {
  const first = await fresh({ 'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'first' }) });
  const second = await fresh({
    'pdf/SKILL.md': skillMd({ name: 'pdf', description: 'second' }),
    'csv-tools/SKILL.md': csv,
  });
  const catalog = loadSkillCatalog({ roots: [first, second] });
  expect([...catalog.skills.values()].map((s) => [s.name, s.description, s.dir])).toEqual([
    ['pdf', 'first', join(first, 'pdf')],
    ['csv-tools', 'Clean CSV files.', join(second, 'csv-tools')],
  ]);
  expect(catalog.roots).toEqual([first, second]);
  expect(catalog.maxBytes).toBe(1_048_576);
});

test('front matter with a BOM, CRLF line ends, extra fields and compatibility is accepted', async () => {
  const text =
    '\ufeff---\r\nname: pdf\r\ndescription: Read PDFs.\r\ncompatibility: Needs python3\r\nlicense: MIT\r\nmetadata:\r\n  author: ada\r\n---\r\nBody\r\n';
  const root = await fresh({ 'pdf/SKILL.md': text });
  const [skill] = loadSkillCatalog({ root }).skills.values();
  expect(skill).toEqual({
    name: 'pdf',
    description: 'Read PDFs.',
    compatibility: 'Needs python3',
    dir: join(root, 'pdf'),
    root,
  });
});

test('names and descriptions at their length limits are accepted', async () => {
  const name = `${'a'.repeat(62)}-b`;
  const root = await fresh({
    [`${name}/SKILL.md`]: skillMd({
      name,
      description: 'd'.repeat(1024),
      compatibility: 'c'.repeat(500),
    }),
  });
  expect([...loadSkillCatalog({ root }).skills.keys()]).toEqual([name]);
});

const invalid: [string, string, string][] = [
  [
    'no front matter',
    '# Just markdown\n',
    'SKILL.md must start with YAML front matter: a "---" line, the fields, then a "---" line',
  ],
  [
    'unclosed front matter',
    '---\nname: pdf\ndescription: x\n',
    'the front matter is not closed by a "---" line within 65536 bytes',
  ],
  ['invalid YAML', '---\nname: [pdf\n---\n', 'the front matter is not valid YAML: '],
  [
    'a list instead of a mapping',
    '---\n- pdf\n---\n',
    'the front matter must be a YAML mapping of fields',
  ],
  [
    'duplicate keys',
    '---\nname: pdf\nname: pdf\ndescription: x\n---\n',
    'the front matter is not valid YAML: Map keys must be unique',
  ],
  [
    'missing name',
    '---\ndescription: x\n---\n',
    'the front matter needs a "name" field (1–64 characters)',
  ],
  [
    'numeric name',
    '---\nname: 42\ndescription: x\n---\n',
    '"name" must be a string (1–64 characters)',
  ],
  [
    'upper-case name',
    '---\nname: PDF\ndescription: x\n---\n',
    'name "PDF" must be lowercase letters and digits with single hyphens between them',
  ],
  [
    'double hyphen',
    '---\nname: p--df\ndescription: x\n---\n',
    'name "p--df" must be lowercase letters and digits with single hyphens between them',
  ],
  [
    'leading hyphen',
    '---\nname: -pdf\ndescription: x\n---\n',
    'name "-pdf" must be lowercase letters and digits with single hyphens between them',
  ],
  [
    'name differs from folder',
    '---\nname: word\ndescription: x\n---\n',
    'name "word" must equal its folder name "pdf"',
  ],
  [
    'missing description',
    '---\nname: pdf\n---\n',
    'the front matter needs a "description" field (1–1024 characters)',
  ],
  [
    'blank description',
    '---\nname: pdf\ndescription: "  "\n---\n',
    '"description" must not be empty (1–1024 characters)',
  ],
  [
    'long description',
    `---\nname: pdf\ndescription: ${'d'.repeat(1025)}\n---\n`,
    '"description" is 1025 characters; the limit is 1024',
  ],
  [
    'long compatibility',
    `---\nname: pdf\ndescription: x\ncompatibility: ${'c'.repeat(501)}\n---\n`,
    '"compatibility" is 501 characters; the limit is 500',
  ],
  [
    'non-string compatibility',
    '---\nname: pdf\ndescription: x\ncompatibility: [a]\n---\n',
    '"compatibility" must be a string (1–500 characters)',
  ],
];

test.each(invalid)('an invalid skill fails construction: %s', async (_label, text, problem) => {
  const root = await fresh({ 'pdf/SKILL.md': text });
  const typed = await caughtAs(InvalidSkillError.is, () => skills({ root }));
  expect(typed.path).toBe(join(root, 'pdf', 'SKILL.md'));
  expect(typed.problem.startsWith(problem)).toBe(true);
  expect(typed.message).toBe(`skills: ${typed.path}: ${typed.problem}`);
});

test('a 65-character name fails construction', async () => {
  const name = 'a'.repeat(65);
  const root = await fresh({ [`${name}/SKILL.md`]: skillMd({ name, description: 'x' }) });
  const error = await caughtAs(InvalidSkillError.is, () => skillFile({ root }));
  expect(error.problem).toBe('"name" is 65 characters; the limit is 64');
});

test('a YAML __proto__ key neither pollutes prototypes nor counts as a field', async () => {
  const root = await fresh({
    'pdf/SKILL.md': '---\n__proto__: {name: evil}\nname: pdf\ndescription: x\n---\n',
  });
  const [skill] = loadSkillCatalog({ root }).skills.values();
  expect(skill?.name).toBe('pdf');
  expect(({} as Record<string, unknown>).name).toBeUndefined();
});

test('ADV-18 a skill folder symlinked outside the root fails construction', async () => {
  const outside = await fresh({ 'pdf/SKILL.md': pdf });
  const root = await fresh({ 'csv-tools/SKILL.md': csv });
  await symlink(join(outside, 'pdf'), join(root, 'pdf'));
  const error = await caught(() => skills({ root }));
  expect(error).toEqual(
    new InvalidSkillError(
      join(root, 'pdf'),
      'is a symbolic link that resolves outside the skills root',
    ),
  );
});

test('ADV-18 a SKILL.md symlinked outside its folder fails construction', async () => {
  const outside = await fresh({ 'secret.md': pdf });
  const root = await fresh();
  await mkdir(join(root, 'pdf'));
  await symlink(join(outside, 'secret.md'), join(root, 'pdf', 'SKILL.md'));
  const error = await caughtAs(InvalidSkillError.is, () => skills({ root }));
  expect(error.problem).toBe('is a symbolic link that resolves outside its skill folder');
});

test('ADV-18 a SKILL.md that is a FIFO fails construction without blocking', async () => {
  const root = await fresh();
  await mkdir(join(root, 'pdf'));
  execFileSync('mkfifo', [join(root, 'pdf', 'SKILL.md')]);
  const error = await caughtAs(InvalidSkillError.is, () => skills({ root }));
  expect(error.problem).toBe('is not a regular file');
});

test('a symlinked skill folder inside the root is accepted', async () => {
  const root = await fresh({ 'store/pdf/SKILL.md': pdf });
  await symlink(join(root, 'store', 'pdf'), join(root, 'pdf'));
  const catalog = loadSkillCatalog({ root });
  expect(catalog.skills.get('pdf')?.dir).toBe(join(root, 'store', 'pdf'));
});

test('an empty catalog fails construction', async () => {
  const root = await fresh({ 'notes/readme.md': 'x' });
  expect(await caught(() => skills({ root }))).toEqual(
    skillsConfigError('root', 'holds no skills: each skill is a folder <root>/<name>/SKILL.md'),
  );
});

describe('option errors name the option', () => {
  let file: string;
  let root: string;
  beforeAll(async () => {
    root = await fresh({ 'pdf/SKILL.md': pdf, 'file.txt': 'x' });
    file = join(root, 'file.txt');
  });
  const cases: [string, () => unknown, string, string | (() => string)][] = [
    ['no options', () => undefined, 'roots', 'is required: pass { roots: [absolute paths] }'],
    [
      'neither root nor roots',
      () => ({ maxBytes: 1 }),
      'roots',
      'is required: pass { roots: [absolute paths] }',
    ],
    [
      'both',
      () => ({ root, roots: [root] }),
      'root',
      'cannot be combined with `roots`; pass one of them',
    ],
    ['empty roots', () => ({ roots: [] }), 'roots', 'must be a non-empty array of absolute paths'],
    [
      'relative root',
      () => ({ root: 'skills' }),
      'root',
      'must be an absolute path (relative paths and "~" are not resolved), got "skills"',
    ],
    [
      'home-relative root',
      () => ({ roots: [root, '~/skills'] }),
      'roots[1]',
      'must be an absolute path (relative paths and "~" are not resolved), got "~/skills"',
    ],
    ['non-string root', () => ({ roots: [7] }), 'roots[0]', 'must be an absolute path, got 7'],
    [
      'missing root',
      () => ({ root: join(root, 'nope') }),
      'root',
      () => `${JSON.stringify(join(root, 'nope'))} does not exist`,
    ],
    [
      'root is a file',
      () => ({ root: file }),
      'root',
      () => `${JSON.stringify(file)} is not a directory`,
    ],
    [
      'negative maxBytes',
      () => ({ root, maxBytes: -1 }),
      'maxBytes',
      'must be a non-negative integer (0 = 1 MiB), got -1',
    ],
    [
      'fractional maxBytes',
      () => ({ root, maxBytes: 1.5 }),
      'maxBytes',
      'must be a non-negative integer (0 = 1 MiB), got 1.5',
    ],
  ];
  test.each(cases)('%s', async (_label, options, option, expected) => {
    const message = typeof expected === 'string' ? expected : expected();
    const error = await caught(() => skills(options() as never));
    expect(error).toEqual(skillsConfigError(option, message));
    expect(ConfigError.is(error, 'skills') && error.option).toBe(option);
    expect(error.message).toBe(`skills: option \`${option}\` ${message}`);
  });
});
