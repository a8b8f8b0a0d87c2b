'use strict';
/**
 * Scenario (f): installed size and package count of each framework as a clean install would lay
 * it out. Peers: walk `npm ls --all --json --long` of the bench's node_modules from the
 * framework's own packages, following dependencies, optionalDependencies and non-optional peer
 * dependencies (npm installs those; optional peers it does not), and add up the files of every
 * package folder reached. Golem: `npm pack --dry-run` (what the registry would ship) plus the
 * same walk over its production dependencies in the repository's node_modules.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('./golem');

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Bytes of the files under `dir`, not descending into nested node_modules (counted apart). */
function folderBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

function npmLs(cwd, extra) {
  const out = execFileSync(NPM, ['ls', '--all', '--json', '--long', ...extra], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out);
}

/** Every node of an `npm ls --long` tree by folder, children merged across deduped mentions. */
function indexTree(tree) {
  const byPath = new Map();
  const visit = (node) => {
    if (node === undefined || typeof node.path !== 'string') return;
    const known = byPath.get(node.path) ?? { path: node.path, children: new Map() };
    byPath.set(node.path, known);
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (typeof child.path === 'string') known.children.set(name, child.path);
      visit(child);
    }
  };
  for (const child of Object.values(tree.dependencies ?? {})) visit(child);
  return byPath;
}

/** Names npm would install for the package in `dir`: deps, optional deps, required peers. */
function installedEdges(dir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const meta = pkg.peerDependenciesMeta ?? {};
  const names = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  for (const name of Object.keys(pkg.peerDependencies ?? {}))
    if (meta[name]?.optional !== true) names.add(name);
  return names;
}

/** The folders a clean install of `roots` (folders) would contain. */
function closure(byPath, roots) {
  const seen = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const dir = pending.pop();
    if (seen.has(dir)) continue;
    seen.add(dir);
    const node = byPath.get(dir);
    if (node === undefined) continue;
    const wanted = installedEdges(dir);
    for (const [name, childPath] of node.children) if (wanted.has(name)) pending.push(childPath);
  }
  return seen;
}

function measure(folders) {
  let bytes = 0;
  for (const dir of folders) bytes += folderBytes(dir);
  return { bytes, packages: folders.size };
}

/** Peers' sizes by framework id. */
function peerSizes(frameworkPackages) {
  const tree = npmLs(__dirname, []);
  const byPath = indexTree(tree);
  const sizes = {};
  for (const [id, names] of Object.entries(frameworkPackages)) {
    const roots = names.map((name) => path.join(__dirname, 'node_modules', name));
    sizes[id] = measure(closure(byPath, roots));
  }
  return sizes;
}

/** Golem: the packed package (unpacked size) plus its production dependency tree. */
function golemSize() {
  const packed = JSON.parse(
    execFileSync(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  )[0];
  const tree = npmLs(ROOT, ['--omit=dev', '--omit=optional', '--omit=peer']);
  const byPath = indexTree(tree);
  const roots = Object.values(tree.dependencies ?? {})
    .map((node) => node.path)
    .filter((p) => typeof p === 'string');
  const deps = measure(closure(byPath, roots));
  return {
    bytes: packed.unpackedSize + deps.bytes,
    packages: 1 + deps.packages,
    tarball: packed.size,
    unpacked: packed.unpackedSize,
    files: packed.entryCount,
    depBytes: deps.bytes,
  };
}

/**
 * Golem with the peers a decorated agent needs (class-validator, class-transformer,
 * class-validator-jsonschema, reflect-metadata): `golem` from {@link golemSize} plus the trees of
 * those packages in the repository's node_modules (they are peers of golem, so an app installs
 * them beside it).
 */
function golemDecoratedSize(golem) {
  const tree = npmLs(ROOT, []);
  const byPath = indexTree(tree);
  const names = [
    'class-validator',
    'class-transformer',
    'class-validator-jsonschema',
    'reflect-metadata',
  ];
  const roots = names.map((name) => path.join(ROOT, 'node_modules', name));
  const peers = measure(closure(byPath, roots));
  return { ...golem, bytes: golem.bytes + peers.bytes, packages: golem.packages + peers.packages };
}

module.exports = { peerSizes, golemSize, golemDecoratedSize };

if (require.main === module) {
  console.log(golemSize());
  console.log(
    peerSizes({
      'ai-sdk': ['ai'],
      'openai-agents': ['@openai/agents'],
      langchain: ['langchain', '@langchain/core'],
    }),
  );
}
