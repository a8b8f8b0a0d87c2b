#!/usr/bin/env node
// Type-checks golem/nestjs (nestjs/**) against older Nest majors than the one the test suite runs
// (the devDependencies hold the newest, Nest 12). For each major it installs @nestjs/common and
// @nestjs/core at a pinned version into a temporary folder (npm, --ignore-scripts; a few seconds
// with a warm cache), then compiles nestjs/ with the repository's tsconfig and @nestjs/* mapped
// to that folder. With --run it also installs @nestjs/testing and @nestjs/platform-express and
// runs the golem/nestjs suite (test/nestjs) against that Nest (jest.older-nest.config.js).
// Exits non-zero on the first failure.
//
//   node scripts/nestjs/check-older-nest.mjs            # compile against Nest 10 and 11 (CI)
//   node scripts/nestjs/check-older-nest.mjs 10 --run   # compile and run the suite on Nest 10
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
/**
 * The newest release of each older major the peer range claims (`^10 || ^11 || ^12`);
 * @nestjs/testing is released less often than the others.
 */
const PINNED = {
  10: { nest: '10.4.22', testing: '10.4.22' },
  11: { nest: '11.2.10', testing: '11.2.6' },
};
const run = process.argv.includes('--run');
const given = process.argv.slice(2).filter((arg) => arg !== '--run');
const majors = given.length > 0 ? given : Object.keys(PINNED);

for (const major of majors) {
  const pinned = PINNED[major];
  if (pinned === undefined)
    throw new Error(`no pinned version for Nest ${major}; add it to PINNED`);
  const version = pinned.nest;
  const dir = mkdtempSync(join(tmpdir(), `golem-nest${major}-`));
  const started = Date.now();
  try {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `nest${major}-types`, private: true }),
    );
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--legacy-peer-deps',
        `@nestjs/common@${version}`,
        `@nestjs/core@${version}`,
        'rxjs@7.8.2',
        ...(run
          ? [`@nestjs/testing@${pinned.testing}`, `@nestjs/platform-express@${version}`]
          : []),
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const modules = join(dir, 'node_modules');
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(repo, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
          baseUrl: repo,
          paths: {
            '@nestjs/common': [join(modules, '@nestjs/common')],
            '@nestjs/common/*': [join(modules, '@nestjs/common/*')],
            '@nestjs/core': [join(modules, '@nestjs/core')],
            '@nestjs/core/*': [join(modules, '@nestjs/core/*')],
            rxjs: [join(modules, 'rxjs')],
          },
        },
        // nestjs/ and what it imports; the ambient declarations of src/ and decorators/ come along.
        include: [
          join(repo, 'nestjs'),
          join(repo, 'src', '**', '*.d.ts'),
          join(repo, 'decorators', '**', '*.d.ts'),
        ],
      }),
    );
    const installed = Date.now();
    try {
      execFileSync(
        process.execPath,
        [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig],
        {
          cwd: repo,
          stdio: 'inherit',
        },
      );
    } catch {
      console.error(`golem/nestjs does not compile against Nest ${version} (errors above)`);
      process.exitCode = 1;
      break;
    }
    const seconds = (ms) => (ms / 1000).toFixed(1);
    if (run) {
      try {
        execFileSync(
          process.execPath,
          [
            join(repo, 'node_modules', 'jest', 'bin', 'jest.js'),
            '-c',
            join(repo, 'scripts', 'nestjs', 'jest.older-nest.config.js'),
          ],
          { cwd: repo, stdio: 'inherit', env: { ...process.env, GOLEM_NEST_DIR: dir } },
        );
      } catch {
        console.error(`the golem/nestjs suite fails on Nest ${version} (see above)`);
        process.exitCode = 1;
        break;
      }
    }
    console.log(
      `golem/nestjs compiles against Nest ${version}${run ? ' and its suite passes there' : ''} (install ${seconds(installed - started)} s, then ${seconds(Date.now() - installed)} s)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
