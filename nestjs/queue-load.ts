/* eslint-disable @typescript-eslint/no-require-imports -- golem/queue is loaded on first use, so golem/nestjs works without its peers */
import type * as QueueEntry from '../src/queue/index';

/** The `golem/queue` entry point, as the Nest queue module uses it. */
export type QueueModule = typeof QueueEntry;

/**
 * Loads `golem/queue` when the Nest queue module is first configured — never when `golem/nestjs`
 * itself loads, so an application without BullMQ and ioredis keeps working. Without them it throws
 * the entry point's `missing-peer` `ConfigError` naming the `npm install` command.
 */
export function loadQueue(): QueueModule {
  return require('../src/queue/index') as QueueModule;
}
