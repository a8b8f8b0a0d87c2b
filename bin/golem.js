#!/usr/bin/env node
// The `golem` command: dispatches a subcommand to its compiled module in dist/.
// Each module exports `main(argv: string[]): Promise<number>` (the exit code).
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');

/** Subcommands: the compiled module (relative to the package root) and a one-line summary. */
const COMMANDS = {
  schemas: {
    module: 'dist/decorators/cli/schemas.js',
    summary: 'JSON Schemas from TypeScript types; --check decorated DTOs against their types',
  },
  run: {
    module: 'dist/container/cli/run.js',
    summary: 'Run an exported @Agent class through the container; print output, messages, usage',
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
  const file = join(__dirname, '..', command.module);
  if (!existsSync(file)) {
    process.stderr.write(
      `golem: the compiled "${name}" command is missing (${file}).\n` +
        'Build the package first (npm run build), or reinstall it.\n',
    );
    return 2;
  }
  const loaded = require(file);
  if (typeof loaded.main !== 'function') {
    process.stderr.write(`golem: ${file} does not export main(argv)\n`);
    return 2;
  }
  return loaded.main(rest);
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
