/* eslint-disable @typescript-eslint/no-require-imports -- the peers are loaded by literal name, so bundlers see them */
import { checkPeers, type PeerLoader } from '../src/index';

/**
 * The packages `golem/decorators` needs beside golem: its peer dependencies (optional for golem
 * as a whole, required by this entry point), each with its loader. reflect-metadata comes first,
 * so it is in place before anything is decorated. Apps built on Nest or class-validator usually
 * have all but class-validator-jsonschema already.
 */
export const DECORATORS_PEER_LOADERS: Readonly<Record<string, PeerLoader>> = Object.freeze({
  'reflect-metadata': () => require('reflect-metadata') as unknown,
  'class-validator': () => require('class-validator') as unknown,
  'class-transformer': () => require('class-transformer') as unknown,
  'class-validator-jsonschema': () => require('class-validator-jsonschema') as unknown,
});

/** The names of the peers of `golem/decorators`. */
export const DECORATORS_PEERS: readonly string[] = Object.freeze(
  Object.keys(DECORATORS_PEER_LOADERS),
);

checkPeers('golem/decorators', DECORATORS_PEER_LOADERS);
