import { mkdtemp, rm } from 'node:fs/promises';
import type { Server, Socket } from 'node:net';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One stream shared by the child's stdout and stderr, so the parent reads both in the order the
 * child wrote them: a connected pair of Unix-domain sockets (`writer` is handed to the child as
 * fds 1 and 2, `reader` stays here). The rendezvous socket lives in a fresh private (0700)
 * temporary directory that is removed as soon as the pair is connected.
 */
export interface OutputChannel {
  writer: Socket;
  reader: Socket;
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Opens an {@link OutputChannel}; rejects when the platform cannot (the caller falls back to pipes). */
export async function openOutputChannel(): Promise<OutputChannel> {
  const dir = await mkdtemp(join(tmpdir(), 'golem-shell-'));
  const server = createServer({ pauseOnConnect: true });
  try {
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await listen(server, join(dir, 'out.sock'));
    const writer = connect(join(dir, 'out.sock'));
    await new Promise<void>((resolve, reject) => {
      writer.once('error', reject);
      writer.once('connect', () => {
        writer.off('error', reject);
        resolve();
      });
    });
    const reader = await accepted;
    return { writer, reader };
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
