// @ts-check
/**
 * Checks of the packed tarball itself (stage `pack`) and of `npm install golem` alone (stage
 * `alone`): what ships, what every subpath resolves to, the install size, and the error each
 * entry point gives without its peers.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { ENTRY_PEERS, INSTALL_TARGET_BYTES } from './matrix.mjs';
import { diskUsage, mb, mustRun, npmInstall, run } from './tools.mjs';

/** Files under `dir`, relative, with `/` separators. @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path).map((f) => `${entry.name}/${f}`);
    return [entry.name];
  });
}

/**
 * Every concrete subpath of the package (`golem`, `golem/decorators`, `golem/providers/openai`,
 * …) with the files its `exports` entry names, wildcards expanded against the unpacked package.
 * @param {string} pkgDir
 * @returns {{ specifier: string; subpath: string; types: string; js: string }[]}
 */
export function subpaths(pkgDir) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const out = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const { types, default: js } = target;
    if (!key.includes('*')) {
      out.push({ specifier: posix.join(pkg.name, key), subpath: key, types, js });
      continue;
    }
    const base = join(pkgDir, dirname(js.slice(0, js.indexOf('*') + 1)));
    for (const name of existsSync(base) ? readdirSync(base) : []) {
      if (!statSync(join(base, name)).isDirectory()) continue;
      out.push({
        specifier: posix.join(pkg.name, key.replace('*', name)),
        subpath: key.replace('*', name),
        types: types.replace('*', name),
        js: js.replace('*', name),
      });
    }
  }
  return out;
}

/**
 * Stage `pack`: `npm pack` the repository, unpack it, and check what ships. Returns the tarball.
 * @param {string} root the repository
 * @param {string} tmp  the suite's scratch folder
 */
export async function packAndCheck(root, tmp) {
  if (!existsSync(join(root, 'dist', 'src', 'core', 'index.js')))
    throw new Error('no build: run `npm run build` before the consumer suite');
  const packed = await mustRun('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: root });
  const info = JSON.parse(packed.stdout)[0];
  const tarball = join(tmp, info.filename);
  const unpacked = join(tmp, 'unpacked');
  await mustRun('mkdir', ['-p', unpacked], { cwd: tmp });
  await mustRun('tar', ['-xzf', tarball, '-C', unpacked], { cwd: tmp });
  const pkgDir = join(unpacked, 'package');
  const files = new Set(filesUnder(pkgDir));
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

  if (!files.has('LICENSE')) problems.push('the tarball has no LICENSE');
  else if (!readFileSync(join(pkgDir, 'LICENSE'), 'utf8').startsWith(`${pkg.license} License`))
    problems.push(`LICENSE is not the ${pkg.license} license package.json names`);

  // golem studio serves the app built into the package: no download at run time.
  const studioApp = 'dist/studio/app/index.html';
  if (!files.has(studioApp)) problems.push(`the studio app (${studioApp}) is not shipped`);
  else {
    const html = readFileSync(join(pkgDir, studioApp), 'utf8');
    for (const [, asset] of html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g))
      if (!files.has(`dist/studio/app/${asset}`))
        problems.push(`the studio app names ${asset}, which is not shipped`);
  }

  for (const key of Object.keys(pkg.exports))
    if (key.includes('*'))
      problems.push(`exports "${key}" is a wildcard: name every entry point (ADR 0005 §4)`);
  const all = subpaths(pkgDir);
  const mapped = pkg.typesVersions?.['*'] ?? {};
  for (const { subpath, types, js } of all) {
    for (const file of [types, js])
      if (!files.has(posix.normalize(file)))
        problems.push(`exports "${subpath}" → ${file} is not shipped`);
    if (subpath === '.') continue;
    const key = subpath.slice(2);
    const pattern = Object.keys(mapped).find(
      (k) => k === key || (k.endsWith('/*') && key.startsWith(k.slice(0, -1))),
    );
    const target = pattern && mapped[pattern][0].replace('*', key.slice(pattern.length - 1));
    if (target === undefined)
      problems.push(
        `typesVersions has no entry for "${subpath}" (node10 resolution cannot type it)`,
      );
    else if (posix.normalize(target) !== posix.normalize(types))
      problems.push(`typesVersions maps "${subpath}" to ${target}, exports to ${types}`);
  }

  for (const file of files) {
    const full = join(pkgDir, file);
    if (file.endsWith('.map')) {
      const map = JSON.parse(readFileSync(full, 'utf8'));
      for (const source of map.sources ?? []) {
        const target = posix.normalize(
          posix.join(posix.dirname(file), map.sourceRoot ?? '', source),
        );
        if (!files.has(target)) problems.push(`${file} points at ${target}, which is not shipped`);
      }
    } else if (/\.(c|m)?js$|\.d\.ts$/.test(file)) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(full, 'utf8'))?.[1];
      if (url !== undefined && !url.startsWith('data:')) {
        const target = posix.normalize(posix.join(posix.dirname(file), url));
        if (!files.has(target))
          problems.push(`${file} names the map ${target}, which is not shipped`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`the packed tarball:\n  ${problems.join('\n  ')}`);
  return {
    tarball,
    pkgDir,
    subpaths: all,
    files: files.size,
    size: info.size,
    unpackedSize: info.unpackedSize,
  };
}

/**
 * Specifiers that are not entry points (any more) and must not resolve: a folder of shared
 * internals the `./providers/*` wildcard once exposed (ADR 0005 §4).
 */
export const NOT_EXPORTED = ['golem/providers/shared'];

/**
 * The script run in the bare install. Every entry point must resolve and every `NOT_EXPORTED`
 * specifier must fail with `ERR_PACKAGE_PATH_NOT_EXPORTED` (both `require` and `import`); `core`
 * entry points must load; `ENTRY_PEERS` ones must fail naming `npm install <their peers>`; any
 * other entry point may either load or fail with a `missing-peer` `ConfigError` naming only
 * optional peers of package.json (an entry point another part of golem added).
 * @param {string[]} core
 * @param {string[]} others
 * @param {string[]} optionalPeers
 */
function aloneScript(core, others, optionalPeers) {
  return `'use strict';
const entries = ${JSON.stringify(ENTRY_PEERS)};
const core = ${JSON.stringify(core)};
const others = ${JSON.stringify(others)};
const gone = ${JSON.stringify(NOT_EXPORTED)};
const optional = new Set(${JSON.stringify(optionalPeers)});
const problems = [];
for (const id of [...core, ...others, ...Object.keys(entries)]) {
  try { require.resolve(id); } catch (error) { problems.push(id + ' does not resolve: ' + (error && error.message)); }
}
for (const id of core) {
  try { require(id); } catch (error) { problems.push(id + ' failed to load: ' + error.message); }
}
for (const id of others) {
  try { require(id); console.log(id + ': loads'); } catch (error) {
    const packages = Array.isArray(error && error.packages) ? error.packages : [];
    if (error.kind !== 'ConfigError' || error.reason !== 'missing-peer' || !packages.every((p) => optional.has(p)))
      problems.push(id + ' failed to load: ' + (error && error.message));
    else console.log(id + ': ' + error.kind + ': ' + error.message);
  }
}
async function main() {
  for (const id of gone) {
    for (const [how, load] of [['require', () => require(id)], ['import', () => import(id)]]) {
      try {
        await load();
        problems.push(how + '(' + id + ') loaded: it is not an entry point');
      } catch (error) {
        if (!error || error.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED')
          problems.push(how + '(' + id + ') did not fail with ERR_PACKAGE_PATH_NOT_EXPORTED: ' + (error && (error.code + ' ' + error.message)));
        else if (how === 'require') console.log(id + ': ' + error.code);
      }
    }
  }
  for (const [id, peers] of Object.entries(entries)) {
    const command = 'npm install ' + peers.join(' ');
    for (const [how, load] of [['require', () => require(id)], ['import', () => import(id)]]) {
      try {
        await load();
        problems.push(how + '(' + id + ') loaded without its peers');
      } catch (error) {
        if (!String(error && error.message).includes(command))
          problems.push(how + '(' + id + ') did not name \`' + command + '\`: ' + (error && error.message));
        else if (how === 'require') console.log(id + ': ' + error.kind + ': ' + error.message);
      }
    }
  }
  if (problems.length > 0) { console.error(problems.join('\\n')); process.exitCode = 1; }
}
main();
`;
}

/** Entry points that must load with golem alone: the engine, test doubles and the adapters. */
const CORE = /^golem(\/testing|\/providers\/[\w-]+)?$/;

/**
 * Stage `alone`: `npm install <tarball>` into an empty project; measure it against the target
 * and load every entry point. Returns the sizes and the messages seen.
 * @param {string} tmp
 * @param {{ tarball: string; pkgDir: string; subpaths: { specifier: string }[] }} packed
 */
export async function aloneInstall(tmp, packed) {
  const dir = join(tmp, 'alone');
  await mustRun('mkdir', ['-p', dir], { cwd: tmp });
  writeFileSync(join(dir, 'package.json'), '{ "name": "alone", "private": true }\n');
  await npmInstall(dir, [packed.tarball]);
  const usage = diskUsage(join(dir, 'node_modules'));
  const specifiers = packed.subpaths.map((s) => s.specifier).filter((s) => !(s in ENTRY_PEERS));
  const core = specifiers.filter((s) => CORE.test(s));
  const others = specifiers.filter((s) => !CORE.test(s));
  const pkg = JSON.parse(readFileSync(join(packed.pkgDir, 'package.json'), 'utf8'));
  const meta = pkg.peerDependenciesMeta ?? {};
  const optional = Object.keys(pkg.peerDependencies ?? {}).filter(
    (p) => meta[p]?.optional === true,
  );
  writeFileSync(join(dir, 'check.js'), aloneScript(core, others, optional));
  const result = await run(process.execPath, ['check.js'], { cwd: dir });
  if (result.code !== 0)
    throw new Error(`golem alone: entry points misbehave:\n${result.stderr}${result.stdout}`);
  if (usage.disk > INSTALL_TARGET_BYTES)
    throw new Error(
      `golem alone installs ${mb(usage.disk)}, over the ${mb(INSTALL_TARGET_BYTES)} target`,
    );
  return {
    ...usage,
    messages: result.stdout.trim().split('\n'),
    core: core.length,
    where: relative(tmp, dir),
  };
}
