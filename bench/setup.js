'use strict';
/**
 * Makes the bench runnable on a fresh clone: installs the repository's own dependencies when they
 * are missing (the build needs TypeScript; the decorated agents need class-validator), then
 * builds Golem so the bench measures the dist users get.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('./golem');

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (args) => execFileSync(NPM, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });

if (!fs.existsSync(path.join(ROOT, 'node_modules', 'typescript', 'package.json'))) {
  process.stderr.write('setup: installing the repository dependencies (npm ci)…\n');
  run(['ci', '--no-audit', '--no-fund']);
}
process.stderr.write('setup: building Golem (npm run build)…\n');
run(['run', 'build']);
