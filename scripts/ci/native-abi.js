// Preloaded (`node --require`, through NODE_OPTIONS) by `other-nodes.sh test` only: when this Node's
// ABI differs from the one `npm ci` built better-sqlite3 for, loads of its addon are sent to the
// copy built for this ABI in GOLEM_NATIVE_DIR (`better_sqlite3-abi<modules>.node`). node_modules is
// never touched, so Node 20 and every other process keep using the installed build.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.GOLEM_NATIVE_DIR;
const built = dir && path.join(dir, `better_sqlite3-abi${process.versions.modules}.node`);
const suffix = `${path.sep}better-sqlite3${path.sep}build${path.sep}Release${path.sep}better_sqlite3.node`;

if (built && fs.existsSync(built)) {
  const dlopen = process.dlopen;
  process.dlopen = function dlopenForThisAbi(module, filename, ...rest) {
    const target = typeof filename === 'string' && filename.endsWith(suffix) ? built : filename;
    return dlopen.call(this, module, target, ...rest);
  };
}
