/**
 * `golem/nestjs/queue`: distributed runs (`golem/queue`, BullMQ on Redis) in a NestJS
 * application, the way `@nestjs/bullmq` provides BullMQ — `GolemQueueModule.forRoot` /
 * `forRootAsync` provide the `RunQueue` (`@InjectRunQueue()`), `registerWorker` runs agent classes
 * registered with `GolemModule.forFeature`. A separate entry point so `golem/nestjs` (its code and
 * its type declarations) never needs `bullmq` and `ioredis`, the peers of `golem/queue`.
 * Needs the peers of `golem/nestjs` (checked on import, the same `missing-peer` error).
 * @packageDocumentation
 */
import './peer';
import '../decorators/index';

export { GolemQueueModule, InjectRunQueue, getRunQueueToken } from './queue-module';
export type { GolemQueueModuleOptions, GolemQueueModuleAsyncOptions } from './queue-module';
export { GolemQueueWorker } from './queue-worker';
export { GolemQueueExceptionFilter, queueErrorResponse } from './queue-exception-filter';
export type { GolemQueueWorkerOptions } from './queue-worker';
