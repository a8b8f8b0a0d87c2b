/**
 * The studio as the browser suite needs it: a SQLite store in a temp folder seeded with real runs
 * of golem agents (scripted models), `createStudio` on node:http at 127.0.0.1 port 0 serving the
 * built app (dist/studio/app), and the checks that name what is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, type RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import {
  FunctionModel,
  ScriptedModel,
  StreamFunctionModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { createStudio, type Studio } from '../../src/studio/index';

/** The repository root. */
export const ROOT = join(__dirname, '..', '..');

/** The built studio app (`npm run build:studio`). */
export const APP_DIR = join(ROOT, 'dist', 'studio', 'app');

/** Where the suite saves its screenshots (CI artifacts). */
export const SHOTS = join(ROOT, 'test-artifacts', 'studio');

/** Throws a message naming the command to run when the studio app is not built. */
export function checkStudioBuilt(): void {
  if (!existsSync(join(APP_DIR, 'index.html')))
    throw new Error(
      'the studio app is not built: run `npm run build:studio` at the repository root first.',
    );
}

/** What the seeded agents record: every real execution of their tools. */
export interface ToolLog {
  /** Nights the `book` tool (approval required) actually booked. */
  readonly booked: string[];
  /** Orders the `lookup_order` tool actually looked up. */
  readonly lookedUp: string[];
}

/** `booking`: calls `book` (needs approval), then answers with the tool's result. */
function bookingAgent(log: ToolLog) {
  const book = defineTool({
    name: 'book',
    description: 'Books a hotel night.',
    schema: { type: 'object', properties: { night: { type: 'string' } }, required: ['night'] },
    approval: true,
    execute: (args) => {
      log.booked.push((args as { night: string }).night);
      return 'booked: room 12';
    },
  });
  return new Agent({
    name: 'booking',
    description: 'Books hotel nights (each booking needs approval).',
    model: new FunctionModel((request) => {
      const last = request.messages[request.messages.length - 1];
      return last?.role === 'tool'
        ? textResponse(`Done: ${last.content ?? ''}`, { inputTokens: 40, outputTokens: 6 })
        : toolCallResponse([{ id: 'b1', name: 'book', args: { night: 'Friday' } }], {
            inputTokens: 30,
            outputTokens: 9,
          });
    }),
    tools: [book],
    deferredTools: true,
  });
}

/** `support`: looks an order up, then reports the status the tool gave. */
function supportAgent(log: ToolLog): Agent {
  const lookup = defineTool({
    name: 'lookup_order',
    description: 'Finds an order by id.',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    execute: (args) => {
      log.lookedUp.push((args as { order: string }).order);
      return 'shipped';
    },
  });
  return new Agent({
    name: 'support',
    description: 'Answers order questions.',
    model: new FunctionModel((request) => {
      const last = request.messages[request.messages.length - 1];
      return last?.role === 'tool'
        ? textResponse(`Your order is ${last.content ?? ''}.`, { inputTokens: 50, outputTokens: 7 })
        : toolCallResponse([{ id: 'l1', name: 'lookup_order', args: { order: 'A-17' } }], {
            inputTokens: 35,
            outputTokens: 8,
          });
    }),
    tools: [lookup],
  });
}

/** `greeter`: streams `answer` word by word on every playground message. */
function greeterAgent(answer: string): Agent {
  const model = new StreamFunctionModel(async (_request, emit) => {
    for (const word of answer.split(/(?<= )/)) await emit({ content: word });
    return textResponse(answer, { inputTokens: 12, outputTokens: 9 });
  });
  return new Agent({ name: 'greeter', description: 'Says hello.', model });
}

/** A studio over a seeded store, served on loopback. */
export interface StudioApp {
  readonly studio: Studio;
  readonly store: RunStore;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly log: ToolLog;
  /** Internal errors the studio reported (`onError`). */
  readonly errors: unknown[];
  /** Stops the server and the studio, closes the store, removes the temp folder. */
  stop(): Promise<void>;
}

/** The text the playground's greeter streams. */
export const GREETING = 'Hello from the greeter: how can I help you today?';

/**
 * Seeds a SQLite store with `support-done` (completed, one tool call), `booking-paused` (paused
 * on the `book` approval) and `flaky-failed` (failed at the model stage), then serves a studio
 * with the `booking`, `support` and `greeter` agents.
 */
export async function startStudioApp(): Promise<StudioApp> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-studio-browser-'));
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const log: ToolLog = { booked: [], lookedUp: [] };
  const support = supportAgent(log);
  const booking = bookingAgent(log);
  const flaky = new Agent({
    name: 'flaky',
    model: new ScriptedModel([new Error('provider down: HTTP 503')]),
  });
  await support.run('Where is my order A-17?', { store, runId: 'support-done', owner: 'ann' });
  await booking.run('Book Friday night.', { store, runId: 'booking-paused', owner: 'ann' });
  if ((await store.getRun('booking-paused'))?.status !== 'paused')
    throw new Error('the booking run did not pause');
  await flaky.run('Hello?', { store, runId: 'flaky-failed', owner: 'bob' }).then(
    () => {
      throw new Error('the flaky run did not fail');
    },
    () => undefined,
  );
  log.booked.length = 0;
  log.lookedUp.length = 0;

  const errors: unknown[] = [];
  const studio = createStudio({
    store,
    agents: [support, booking, greeterAgent(GREETING)],
    appDir: APP_DIR,
    pollMs: 100,
    onError: (error) => errors.push(error),
  });
  const server: Server = createServer((req, res) => void studio.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    studio,
    store,
    base: `http://127.0.0.1:${String(port)}`,
    log,
    errors,
    stop: async () => {
      await studio.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
