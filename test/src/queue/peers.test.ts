/**
 * BullMQ and ioredis are optional peers of golem, required by `golem/queue` only: loading the entry
 * point without them fails first with a `missing-peer` `ConfigError` naming the install command;
 * golem itself never loads them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { QUEUE_PEERS } from '../../../src/queue/peers';
import { ConfigError } from 'golem';

test('golem/queue without bullmq and ioredis names the npm install that fixes it', () => {
  const missing = (id: string) => () => {
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  };
  let thrown: unknown;
  jest.isolateModules(() => {
    jest.doMock('bullmq', missing('bullmq'));
    jest.doMock('ioredis', missing('ioredis'));
    try {
      jest.requireActual('golem/queue');
    } catch (error) {
      thrown = error;
    }
  });
  expect(ConfigError.is(thrown, 'peers')).toBe(true);
  expect((thrown as ConfigError).command).toBe('npm install bullmq ioredis');
  expect((thrown as Error).message).toBe(
    'golem/queue needs the packages bullmq, ioredis, peer dependencies of golem that are not installed: run `npm install bullmq ioredis`',
  );
});

test('the peers are optional peer dependencies (and devDependencies, for the suites)', () => {
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
  ) as {
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
    devDependencies: Record<string, string>;
    dependencies: Record<string, string>;
  };
  expect(QUEUE_PEERS).toEqual(['bullmq', 'ioredis']);
  for (const name of QUEUE_PEERS) {
    expect([name, manifest.peerDependenciesMeta[name]?.optional]).toEqual([name, true]);
    expect(manifest.devDependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies[name]).toBeUndefined();
  }
});

test('the engine never loads the queue libraries (a real process, its require cache)', () => {
  const root = join(__dirname, '..', '..', '..');
  const script =
    "require('./src/core/index.ts'); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => /node_modules[\\/](bullmq|ioredis)[\\/]/.test(k))))";
  const loaded = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(JSON.parse(loaded)).toEqual([]);
});
