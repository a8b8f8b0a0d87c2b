'use strict';
/**
 * The bench scripts' command line: `--name=value` options (a bare `--flag` is `'true'`), as an
 * object of strings. Each script reads and converts its own options.
 */
function cliArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']),
  );
}

module.exports = { cliArgs };
