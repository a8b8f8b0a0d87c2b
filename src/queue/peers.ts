/* eslint-disable @typescript-eslint/no-require-imports -- the peers are loaded by literal name, so bundlers see them */
import { checkPeers } from '../core/kit/missing-peer';
import type { PeerLoader } from '../core/kit/missing-peer';

/** The packages `golem/queue` needs beside golem: BullMQ and its Redis client, with their loaders. */
export const QUEUE_PEER_LOADERS: Readonly<Record<string, PeerLoader>> = Object.freeze({
  bullmq: () => require('bullmq') as unknown,
  ioredis: () => require('ioredis') as unknown,
});

/** The names of the peers of `golem/queue` (optional for golem, required by this entry point). */
export const QUEUE_PEERS: readonly string[] = Object.freeze(Object.keys(QUEUE_PEER_LOADERS));

checkPeers('golem/queue', QUEUE_PEER_LOADERS);
