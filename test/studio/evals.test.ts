import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReport } from 'golem/evals';
import { memoryStore } from 'golem/stores/memory';
import type { EvalReportSummary, StudioInfo } from '../../src/studio/api-types';
import { report, simpleCase } from '../evals/report-fixtures';
import { call, serve, type Served } from './studio-harness';

let dir: string;
let served: Served | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'golem-studio-evals-'));
  await writeReport(report([simpleCase('a', true), simpleCase('b', true)], { name: 'v1' }), {
    json: join(dir, 'v1.json'),
  });
  await writeReport(report([simpleCase('a', true), simpleCase('b', false)], { name: 'v2' }), {
    json: join(dir, 'v2.json'),
  });
  writeFileSync(join(dir, 'notes.json'), '{"hello":1}');
  writeFileSync(join(dir, 'broken.json'), '{');
  writeFileSync(join(dir, 'readme.txt'), 'not json');
});

afterEach(async () => {
  await served?.stop();
  served = undefined;
  rmSync(dir, { recursive: true, force: true });
});

test('GET /api/evals lists the reports readReport accepts, others skipped', async () => {
  served = await serve({ store: memoryStore(), reports: dir });
  expect((await call(served, '/api/info')).json<StudioInfo>().features.evals).toBe(true);
  const list = (await call(served, '/api/evals')).json<EvalReportSummary[]>();
  expect(list.map((r) => r.file).sort()).toEqual(['v1.json', 'v2.json']);
  const v2 = list.find((r) => r.file === 'v2.json');
  expect(v2).toMatchObject({ name: 'v2', cases: 2, passRate: 0.5 });
});

test('GET /api/evals/:file and compare; bad names are refused', async () => {
  served = await serve({ store: memoryStore(), reports: dir });
  const one = await call(served, '/api/evals/v1.json');
  expect(one.status).toBe(200);
  expect(one.json<{ name: string }>().name).toBe('v1');
  const compared = await call(served, '/api/evals/compare?base=v1.json&candidate=v2.json');
  expect(compared.status).toBe(200);
  expect(JSON.stringify(compared.json())).toContain('regressed');
  expect((await call(served, '/api/evals/compare?base=v1.json&candidate=nope.json')).status).toBe(
    404,
  );
  for (const name of ['notes.json', '..%2Fv1.json', '%2e%2e', 'v1', '..%2F..%2Fetc%2Fpasswd']) {
    const answer = await call(served, `/api/evals/${name}`);
    expect([name, answer.status]).toEqual([name, 404]);
  }
  expect(
    (await call(served, '/api/evals/compare?base=..%2Fv1.json&candidate=v2.json')).status,
  ).toBe(404);
});

test('without a reports folder the evals routes are 404', async () => {
  served = await serve({ store: memoryStore() });
  expect((await call(served, '/api/evals')).status).toBe(404);
});
