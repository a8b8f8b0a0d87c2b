/**
 * GolemQueueModule (golem/nestjs/queue) without a server: golem/nestjs and golem/nestjs/queue load
 * without BullMQ or ioredis (golem/queue is loaded only when the queue module is configured), and
 * bad options are typed errors at once.
 * The module's behaviour on a real Redis is in test/services/queue/nestjs.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as nestEntry from 'golem/nestjs';
import { Test } from '@nestjs/testing';
import { GolemModule } from 'golem/nestjs';
import { GolemQueueModule } from 'golem/nestjs/queue';
import { ConfigError } from 'golem';

const ROOT = join(__dirname, '..', '..');

test('loading golem/nestjs/queue loads neither bullmq nor ioredis; configuring the queue module does', () => {
  const script = `
    const loaded = () => Object.keys(require.cache).filter((k) => /node_modules[\\\\/](bullmq|ioredis)[\\\\/]/.test(k)).length > 0;
    const nest = require('./nestjs/queue.ts');
    const before = loaded();
    try { nest.GolemQueueModule.forRoot({}); } catch {}
    process.stdout.write(JSON.stringify({ before, after: loaded() }));`;
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(JSON.parse(out)).toEqual({ before: false, after: true });
});

test('golem/nestjs does not export the queue module (its declarations never reach golem/queue)', () => {
  expect(Object.keys(nestEntry)).not.toContain('GolemQueueModule');
  expect(readFileSync(join(ROOT, 'nestjs', 'index.ts'), 'utf8')).not.toMatch(/queue/i);
});

test.each([
  [
    'forRoot with a store that is not one',
    () => GolemQueueModule.forRoot({ connection: 'redis://x', store: 'runs.db' as never }),
  ],
  ['forRoot without options', () => GolemQueueModule.forRoot(undefined as never)],
  ['forRootAsync without a factory', () => GolemQueueModule.forRootAsync({} as never)],
  ['registerWorker without agents', () => GolemQueueModule.registerWorker({} as never)],
])('%s is an invalid-options nestjs ConfigError', (_name, configure) => {
  let thrown: unknown;
  try {
    configure();
  } catch (error) {
    thrown = error;
  }
  expect(ConfigError.is(thrown, 'nestjs')).toBe(true);
  expect(thrown).toMatchObject({ reason: 'invalid-options' });
});

test('a queue module without a store, in an app whose GolemModule has none, fails at startup before connecting', async () => {
  const init = Test.createTestingModule({
    imports: [
      GolemModule.forRoot({ defaultModel: 'test' }),
      GolemQueueModule.forRoot({ connection: 'redis://127.0.0.1:1' }),
    ],
  }).compile();
  await expect(init).rejects.toMatchObject({
    reason: 'invalid-options',
    message:
      'GolemQueueModule.forRoot: no run store: give one here ({ connection, store }) or to GolemModule.forRoot({ store }), which the queue then shares',
  });
});
