// @ts-check
/**
 * Stage `oldest-jest`: the repository's own suites of the entry points with peers (decorators,
 * container, webfetch, skills) run against the OLDEST version of each peer range in
 * package.json, installed in the suite's `oldest` project, so a range never admits a version
 * golem does not work with. Nest is left out here (its testing packages pin Nest itself); the
 * Nest quick start runs on the oldest Nest in stage `oldest`.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { run } from './tools.mjs';

/** The peers whose oldest versions replace the repository's in the run. */
const MAPPED = [
  'class-validator',
  'class-transformer',
  'class-validator-jsonschema',
  'reflect-metadata',
  'inversify',
  'html-to-text',
  'yaml',
];

/**
 * Peers golem imports deep paths of. Only these have their subpaths mapped: a peer's own
 * dependencies may carry another version of a mapped package (inversify 8 brings reflect-metadata
 * 0.2 and imports `reflect-metadata/lite`, which 0.1 does not have).
 */
const DEEP = ['class-transformer', 'class-validator', 'class-validator-jsonschema'];

/** The suites that exercise those peers. */
const SUITES = [
  'test/decorators',
  'test/container',
  'test/src/tools/webfetch',
  'test/src/tools/skills',
];

/**
 * Writes a Jest configuration that extends the repository's and maps the peers to `setDir`'s
 * node_modules, runs the suites with it, and returns the summary line.
 * @param {string} root the repository
 * @param {string} tmp
 * @param {string} setDir the `oldest` project (its node_modules holds the oldest peers)
 */
export async function oldestPeersJest(root, tmp, setDir) {
  const require = createRequire(join(setDir, 'package.json'));
  /** @type {Record<string, string>} */
  const map = {};
  for (const name of MAPPED) {
    map[`^${name}$`] = require.resolve(name);
    if (DEEP.includes(name)) map[`^${name}/(.*)$`] = join(setDir, 'node_modules', name, '$1');
  }
  const config = join(tmp, 'jest.oldest-peers.config.js');
  writeFileSync(
    config,
    `const base = require(${JSON.stringify(join(root, 'jest.config.js'))});\n` +
      `module.exports = { ...base, rootDir: ${JSON.stringify(root)}, reporters: ['default'],\n` +
      `  moduleNameMapper: { ...${JSON.stringify(map)}, ...base.moduleNameMapper } };\n`,
  );
  const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
  const result = await run(process.execPath, [jest, '-c', config, '--ci', ...SUITES], {
    cwd: root,
    timeoutMs: 900_000,
  });
  const summary = /^Tests:.*$/m.exec(result.stderr)?.[0] ?? '(no summary)';
  if (result.code !== 0)
    throw new Error(
      `the suites fail on the oldest peers (${summary}):\n${result.stderr.slice(-6000)}`,
    );
  return summary;
}
