/** Where the example's processes find Redis, and the key prefix they share (from main.ts). */
export const REDIS_URL = process.env.GOLEM_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The Redis key prefix of this run of the example (one per run, deleted at the end). */
export const PREFIX = process.env.GOLEM_EXAMPLE_PREFIX ?? 'golem-example';
