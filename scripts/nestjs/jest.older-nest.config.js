// @ts-check
/**
 * The golem/nestjs suite (test/nestjs) against another Nest install: @nestjs/* resolve from
 * GOLEM_NEST_DIR/node_modules (see check-older-nest.mjs --run); everything else, the
 * repository's own.
 */
const path = require('node:path');
const base = require('../../jest.config.js');

const nest = process.env.GOLEM_NEST_DIR;
if (nest === undefined)
  throw new Error('set GOLEM_NEST_DIR to the folder holding node_modules/@nestjs');
const repo = path.resolve(__dirname, '..', '..');
const shared = (name) => path.join(repo, 'node_modules', name);

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: repo,
  roots: ['<rootDir>/test/nestjs'],
  reporters: ['default'],
  moduleNameMapper: {
    '^@nestjs/(common|core|testing|platform-express)$': `${nest}/node_modules/@nestjs/$1`,
    '^@nestjs/(common|core|testing|platform-express)/(.*)$': `${nest}/node_modules/@nestjs/$1/$2`,
    // One copy of what Nest shares with golem: the metadata registry, validators, observables.
    '^reflect-metadata$': shared('reflect-metadata'),
    '^class-validator$': shared('class-validator'),
    '^class-transformer$': shared('class-transformer'),
    '^rxjs$': shared('rxjs'),
    '^rxjs/operators$': shared('rxjs/operators'),
    ...base.moduleNameMapper,
  },
};
