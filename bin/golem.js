#!/usr/bin/env node
// The `golem` command: dispatches a subcommand to its module. Installed (under node_modules),
// that is the compiled module in dist/; in a checkout of golem's repository it is the TypeScript
// source, compiled on load (see from-source.js), so no build is needed there.
// Each module exports `main(argv: string[]): Promise<number>` (the exit code).
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { isCheckout, useSources } = require('./from-source');

/** Subcommands: the compiled module and its source (relative to the package root), a summary. */
const COMMANDS = {
  init: {
    module: 'dist/container/cli/init.js',
    source: 'container/cli/init.ts',
    summary: 'Scaffold a project: a plain agent, an @Agent class in the container, or a Nest app',
  },
  schemas: {
    module: 'dist/decorators/cli/schemas.js',
    source: 'decorators/cli/schemas.ts',
    summary: 'JSON Schemas from TypeScript types; --check decorated DTOs against their types',
  },
  run: {
    module: 'dist/container/cli/run.js',
    source: 'container/cli/run.ts',
    summary: 'Run an exported @Agent class through the container; print output, messages, usage',
  },
  mcp: {
    module: 'dist/container/cli/mcp.js',
    source: 'container/cli/mcp.ts',
    summary: 'mcp serve: serve an @Agent class (its @Tools and itself), Tools or an Agent over MCP',
  },
  a2a: {
    module: 'dist/container/cli/a2a.js',
    source: 'container/cli/a2a.ts',
    summary: 'a2a serve: serve an @Agent class or an Agent over the Agent2Agent protocol (A2A 1.0)',
  },
  studio: {
    module: 'dist/container/cli/studio.js',
    source: 'container/cli/studio.ts',
    summary: 'Serve Golem Studio over a run store: runs, approvals, replays, playground, evals',
  },
  eval: {
    module: 'dist/container/cli/eval.js',
    source: 'container/cli/eval.ts',
    summary:
      'Run an experiment file: score a dataset, print the report, exit 1 below its thresholds',
  },
};

function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return [
    'usage: golem <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    "Run `golem <command> --help` for a command's options.",
  ].join('\n');
}

async function run(argv) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`golem: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  const root = join(__dirname, '..');
  let file = join(root, command.module);
  if (isCheckout(root, command.source)) {
    try {
      useSources(root);
    } catch (error) {
      process.stderr.write(`golem: ${error.message}\n`);
      return 2;
    }
    file = join(root, command.source);
  } else if (!existsSync(file)) {
    process.stderr.write(
      `golem: the compiled "${name}" command is missing (${file}).\n` +
        'Build the package first (npm run build), or reinstall it.\n',
    );
    return 2;
  }
  try {
    const loaded = require(file);
    if (typeof loaded.main !== 'function') {
      process.stderr.write(
        `golem: ${file} does not export main(argv); reinstall golem (or rebuild: npm run build)\n`,
      );
      return 2;
    }
    return await loaded.main(rest);
  } catch (error) {
    // A peer dependency the command needs is not installed: its message names the npm install.
    if (isMissingPeer(error)) {
      process.stderr.write(`golem ${name}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** A golem `ConfigError` of reason `missing-peer` (any copy of golem): the fix is an install. */
function isMissingPeer(error) {
  return (
    typeof error === 'object' &&
    error !== null &&
    error.reason === 'missing-peer' &&
    typeof error.message === 'string'
  );
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = typeof code === 'number' ? code : 0;
  },
  (error) => {
    process.stderr.write(`golem: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
