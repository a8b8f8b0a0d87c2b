/* eslint-disable @typescript-eslint/no-require-imports -- the peers are loaded by literal name, so bundlers see them */
import { checkPeers, type PeerLoader } from '../src/core/kit/missing-peer';

/**
 * The packages `golem/container` needs beside golem: the peers of `golem/decorators`, which it
 * builds on, and inversify 8. Checked together so that one command installs them all.
 */
const CONTAINER_PEER_LOADERS: Readonly<Record<string, PeerLoader>> = Object.freeze({
  'reflect-metadata': () => require('reflect-metadata') as unknown,
  'class-validator': () => require('class-validator') as unknown,
  'class-transformer': () => require('class-transformer') as unknown,
  'class-validator-jsonschema': () => require('class-validator-jsonschema') as unknown,
  inversify: () => require('inversify') as unknown,
});

/** The names of the peers of `golem/container`. */
export const CONTAINER_PEERS: readonly string[] = Object.freeze(
  Object.keys(CONTAINER_PEER_LOADERS),
);

checkPeers('golem/container', CONTAINER_PEER_LOADERS);
