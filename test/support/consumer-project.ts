/**
 * Consumer-like projects for spawning the `golem` command: a temporary folder with its own
 * tsconfig and node_modules, and golem either installed (compiled into node_modules/golem, with no
 * TypeScript sources, as `npm install` leaves it) or reached from this checkout.
 */
import { transformFileSync } from '@swc/core';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository root. */
export const REPO = join(__dirname, '..', '..');

const swcrc = JSON.parse(readFileSync(join(REPO, '.swcrc'), 'utf8')) as Record<string, unknown>;
delete swcrc.$schema;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Installs golem into `target` (a package folder, e.g. `<project>/node_modules/golem`): its
 * package.json and bin, and `dist/` compiled from the sources with the repository's swc settings
 * (what `npm run build` produces, minus declarations). No `.ts` file is copied.
 */
export function installGolem(target: string): void {
  for (const folder of ['src', 'decorators', 'container']) {
    for (const file of sources(join(REPO, folder))) {
      const out = join(target, 'dist', relative(REPO, file)).replace(/\.ts$/, '.js');
      const { code } = transformFileSync(file, { ...swcrc, swcrc: false, sourceMaps: false });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }
  }
  mkdirSync(join(target, 'bin'), { recursive: true });
  for (const file of readdirSync(join(REPO, 'bin')))
    copyFileSync(join(REPO, 'bin', file), join(target, 'bin', file));
  copyFileSync(join(REPO, 'package.json'), join(target, 'package.json'));
}

/**
 * Fills `project/node_modules` with links to this repository's installed packages, except those
 * named in `without` (a package or a whole `@scope`).
 */
export function linkDependencies(project: string, without: readonly string[] = []): void {
  const modules = join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry.startsWith('.') || without.includes(entry)) continue;
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry), 'junction');
  }
}

/** Writes `files` (paths relative to `project`) with their text. */
export function writeFiles(project: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
}

/** Runs `node <bin> …args` in `cwd` with no provider keys in the environment. */
export function golem(bin: string, cwd: string, args: readonly string[]): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8' });
}
