/**
 * A refused chat request (a body over `maxBodyBytes`, a body that is not JSON, a malformed
 * message list) leaves a kept-alive connection usable: the client's next request is answered, on
 * the same socket when the refused body could be read to its end, as a browser's next chat
 * message must be.
 */
import { Agent as HttpAgent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Agent } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { pipeChat } from 'golem/ui';
import { serve } from './chat-client';

jest.setTimeout(20_000);

const LIMIT = 4096;

const hello = JSON.stringify({
  messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
});

function textOf(size: number): string {
  return JSON.stringify({
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(size) }] }],
  });
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  socket: Socket;
}

/** One POST through `agent`: the status, the whole body and the socket that carried it. */
function post(agent: HttpAgent, url: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent }, (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
          body: Buffer.concat(parts).toString('utf8'),
          socket: req.socket as Socket,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setHeader('content-type', 'application/json');
    req.end(body);
  });
}

async function withRoute(
  body: (url: string, agent: HttpAgent, model: ScriptedModel) => Promise<void>,
): Promise<void> {
  const model = new ScriptedModel([textResponse('Still here.')]);
  const server = await serve(
    (req, res) => void pipeChat(new Agent({ model }), req, res, { maxBodyBytes: LIMIT }),
  );
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  try {
    await body(`${server.url}/chat`, agent, model);
  } finally {
    agent.destroy();
    await server.close();
  }
}

async function refusedThenAnsweredOnTheSameSocket(refused: string, path: string): Promise<void> {
  await withRoute(async (url, agent, model) => {
    const first = await post(agent, url, refused);
    expect(first.status).toBe(400);
    expect(first.connection).toBe('keep-alive');
    expect(JSON.parse(first.body)).toMatchObject({ path });
    const second = await post(agent, url, hello);
    expect(second.status).toBe(200);
    expect(second.socket).toBe(first.socket);
    expect(second.body).toContain('"delta":"Still here."');
    expect(model.calls).toBe(1);
  });
}

test('after a body over maxBodyBytes is refused, the next request on the same socket is answered', async () => {
  await refusedThenAnsweredOnTheSameSocket(textOf(300 * 1024), 'body');
});

test('a body far over maxBodyBytes is refused with connection: close, and the next request is answered', async () => {
  await withRoute(async (url, agent, model) => {
    // Past the drain bound the server stops reading: it answers 400 and closes the connection
    // (a client still uploading may see the reset instead of the answer).
    const first: Answer | Error = await post(agent, url, textOf(8 * 1024 * 1024)).catch(
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    if (!(first instanceof Error)) {
      expect(first.status).toBe(400);
      expect(first.connection).toBe('close');
    }
    const second = await post(agent, url, hello);
    expect(second.status).toBe(200);
    expect(second.body).toContain('"delta":"Still here."');
    expect(model.calls).toBe(1);
  });
});

test('after a body that is not JSON is refused, the next request on the same socket is answered', async () => {
  await refusedThenAnsweredOnTheSameSocket('{"messages": [', 'body');
});

test('after a malformed message list is refused, the next request on the same socket is answered', async () => {
  await refusedThenAnsweredOnTheSameSocket(JSON.stringify({ messages: [] }), 'messages');
});
