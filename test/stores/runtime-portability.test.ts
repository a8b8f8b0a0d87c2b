/**
 * The durable layer where Node's APIs differ (scripts/runtimes/run.mjs runs it on Bun, Deno and
 * workerd for real): Deno refuses `os.hostname()` without `--allow-sys=hostname`, and a Cloudflare
 * Worker's `setInterval` returns a plain number, without `unref`. A stored run works in both; on
 * Node the lease owner still names the host and the process.
 */
import * as os from 'node:os';
import type * as Golem from 'golem';
import type * as Memory from 'golem/stores/memory';
import type * as Testing from 'golem/testing';

const realHostname = jest.requireActual<typeof os>('node:os').hostname;
/** What `os.hostname()` does in golem's modules (each reload included). */
let mockHostname: () => string = realHostname;
jest.mock('node:os', () => ({
  ...jest.requireActual<typeof os>('node:os'),
  hostname: () => mockHostname(),
}));

/**
 * Fresh golem modules (the process's part of the lease owner is read once per module load), and a
 * stored run whose tool reads the lease owner the store holds while the run is in progress.
 */
async function ownerDuringRun(): Promise<{ owner: string | null; output: unknown }> {
  jest.resetModules();
  const { Agent, defineTool } = jest.requireActual<typeof Golem>('golem');
  const { memoryStore } = jest.requireActual<typeof Memory>('golem/stores/memory');
  const { FunctionModel, textResponse, toolCallResponse } =
    jest.requireActual<typeof Testing>('golem/testing');
  const store = memoryStore();
  let owner: string | null = null;
  const peek = defineTool({
    name: 'peek',
    description: 'Reads the stored run.',
    schema: { type: 'object', properties: {} },
    execute: async () => {
      owner = (await store.getRun('portable'))?.leaseOwner ?? null;
      return 'ok';
    },
  });
  const model = new FunctionModel((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? textResponse('done')
      : toolCallResponse([{ id: 'c1', name: 'peek', args: {} }]),
  );
  const result = await new Agent({ model, tools: [peek], store }).run('go', { runId: 'portable' });
  return { owner, output: result.output };
}

afterEach(() => {
  jest.restoreAllMocks();
  mockHostname = realHostname;
});

test('on Node the lease owner is host/pid/suffix', async () => {
  const { owner, output } = await ownerDuringRun();
  expect(output).toBe('done');
  expect(owner).toMatch(new RegExp(`^${escape(realHostname())}/${process.pid}/[0-9a-f]{8}$`));
});

test('a host name the runtime refuses (Deno without --allow-sys) becomes unknown-host', async () => {
  mockHostname = () => {
    throw new Error('NotCapable: Requires sys access to "hostname"');
  };
  const { owner, output } = await ownerDuringRun();
  expect(output).toBe('done');
  expect(owner).toMatch(new RegExp(`^unknown-host/${process.pid}/[0-9a-f]{8}$`));
});

test('timers without unref (a Worker’s are numbers) still renew and stop', async () => {
  const realSetInterval = global.setInterval;
  const realClearInterval = global.clearInterval;
  const ids: number[] = [];
  const cleared: unknown[] = [];
  jest.spyOn(global, 'setInterval').mockImplementation(((
    handler: () => void,
    ms?: number,
  ): number => {
    const id = Number(realSetInterval(handler, ms)); // Node clears a timer by its number too
    ids.push(id);
    return id;
  }) as unknown as typeof setInterval);
  jest.spyOn(global, 'clearInterval').mockImplementation((id) => {
    cleared.push(id);
    realClearInterval(id);
  });
  const { output } = await ownerDuringRun();
  expect(output).toBe('done');
  expect(ids.length).toBeGreaterThan(0); // the lease heartbeat was started as a number...
  expect(ids.every((id) => cleared.includes(id))).toBe(true); // ...and stopped
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
