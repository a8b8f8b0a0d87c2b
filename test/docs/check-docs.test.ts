/**
 * The documentation check of `npm run docs` (scripts/docs/check-docs.mjs) also runs with the test
 * suite: relative links and anchors in README.md, the guides, the ADRs and the examples' READMEs
 * resolve, and every guide, ADR and example folder is in the site's navigation and the indexes.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

test('links, anchors and the navigation of the docs are consistent', () => {
  const script = join(__dirname, '..', '..', 'scripts', 'docs', 'check-docs.mjs');
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  expect({ status: run.status, problems: run.stderr }).toEqual({ status: 0, problems: '' });
});
