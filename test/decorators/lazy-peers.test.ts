/**
 * Importing golem/decorators checks its peers are installed but loads only reflect-metadata; the
 * others load the first time a DTO is compiled or validated (issue 13's import cost).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const PEERS =
  /node_modules[\\/](class-validator|class-transformer|class-validator-jsonschema)[\\/]/;

/** The peer packages in a fresh process's require cache after `script` ran. */
function peersLoadedAfter(script: string): string[] {
  const report = `process.stdout.write(JSON.stringify([...new Set(Object.keys(require.cache).filter((k) => ${String(PEERS)}.test(k)).map((k) => k.match(${String(PEERS)})[1]))].sort()))`;
  const out = execFileSync(
    process.execPath,
    ['-r', '@swc-node/register', '-e', `${script};${report}`],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as string[];
}

test('importing the entry point loads none of class-validator, class-transformer, class-validator-jsonschema', () => {
  expect(peersLoadedAfter("require('./decorators/index.ts')")).toEqual([]);
});

test('compiling a DTO loads class-validator on first use', () => {
  const script = [
    "const { validateDto } = require('./decorators/index.ts')",
    'class Empty {}',
    // An undecorated class is refused, after its metadata was read from class-validator.
    'try { validateDto(Empty, {}) } catch (error) { if (error.name !== "ConfigError") throw error }',
  ].join(';');
  expect(peersLoadedAfter(script)).toContain('class-validator');
});
