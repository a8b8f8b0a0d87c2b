// Running the `golem` command from a checkout of golem's repository, without a build: the
// command's TypeScript sources are compiled on load by @swc-node/register (a development
// dependency of the repository; it keeps decorator metadata) with the repository's tsconfig, and
// `golem` / `golem/<entry>` imports of the modules it loads resolve to those same sources, so one
// copy of golem is in play and nothing goes stale.
'use strict';

const Module = require('node:module');
const { existsSync, readFileSync } = require('node:fs');
const { join, relative, isAbsolute, sep } = require('node:path');

/** Where the golem command looks for its own sources; other modules see this value. */
const SOURCE_ROOT = Symbol.for('golem.cli.sourceRoot');

/** Whether the package at `root` is a checkout: not installed under node_modules, sources present. */
function isCheckout(root, source) {
  return !root.split(sep).includes('node_modules') && existsSync(join(root, source));
}

/** Whether `file` lies inside `dir` (and not in one of its node_modules). */
function inside(dir, file) {
  const path = relative(dir, file);
  return (
    path !== '' &&
    !path.startsWith('..') &&
    !isAbsolute(path) &&
    !path.split(sep).includes('node_modules')
  );
}

/**
 * The source file of each `golem…` specifier, from the package's `exports`: `./dist/<path>.js`
 * becomes `<path>.ts` (a `*` in a subpath stands for one path segment).
 */
function sourceMap(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const file = typeof target === 'string' ? target : target && target.default;
    if (typeof file !== 'string' || !/^\.\/dist\/.+\.js$/.test(file)) continue;
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    const source = file.slice('./dist/'.length, -'.js'.length) + '.ts';
    entries.push({ specifier, source });
  }
  return (request) => {
    for (const { specifier, source } of entries) {
      if (!specifier.includes('*')) {
        if (request === specifier) return join(root, source);
        continue;
      }
      const [before, after] = specifier.split('*');
      if (!request.startsWith(before) || !request.endsWith(after)) continue;
      const segment = request.slice(before.length, request.length - after.length);
      if (!/^[A-Za-z0-9_-]+$/.test(segment)) continue;
      const file = join(root, source.replace('*', segment));
      if (existsSync(file)) return file;
    }
    return undefined;
  };
}

/**
 * Prepares the process to load the command's sources from the checkout at `root`; throws an
 * error saying what to install when @swc-node/register is missing.
 */
function useSources(root) {
  const load = Module.createRequire(join(root, 'package.json'));
  let swc;
  let tsconfig;
  try {
    swc = load('@swc-node/register/register');
    tsconfig = load('@swc-node/register/read-default-tsconfig');
  } catch (cause) {
    throw new Error(
      `running golem from its sources (${root}) needs its development dependencies: ` +
        'run `npm install` there (or `npm run build` to use the compiled command)',
      { cause },
    );
  }
  const options = tsconfig.readDefaultTsConfig(join(root, 'tsconfig.json'));
  swc.register(options, { matcher: (file) => inside(root, file) });
  const golemSource = sourceMap(root);
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveGolemFromSource(request, ...rest) {
    const source = typeof request === 'string' ? golemSource(request) : undefined;
    return resolve.call(this, source ?? request, ...rest);
  };
  globalThis[SOURCE_ROOT] = root;
}

module.exports = { isCheckout, useSources, SOURCE_ROOT };
