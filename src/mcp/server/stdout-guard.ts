import { Writable } from 'node:stream';

/** This process's stdout, kept for the MCP protocol (see {@link reserveStdoutForMcp}). */
export interface McpStdoutReservation {
  /** Writes to the real stdout: the protocol's stream (give it to `serveMcpStdio`). */
  readonly protocol: Writable;
  /** Ends the reservation; once every reservation ended, `process.stdout.write` is restored. */
  release(): void;
}

type Write = typeof process.stdout.write;
/** The one form of `write` the protocol stream uses. */
type WriteChunk = (
  this: NodeJS.WriteStream,
  chunk: Uint8Array,
  callback: (error?: Error | null) => void,
) => boolean;

/** The redirect in place: the real `write`, whether it was an own property, and the holders. */
let installed: { original: Write; own: boolean; redirect: Write; holders: number } | undefined;

/**
 * Keeps this process's stdout for the MCP protocol: until `release()`, everything else written to
 * `process.stdout` — `process.stdout.write`, and so `console.log`, `console.info`, … — goes to
 * stderr, and only the returned `protocol` stream writes to the real stdout. A tool that logs a
 * client-chosen string therefore cannot forge a JSON-RPC message. `serveMcpStdio` reserves stdout
 * itself when it serves on `process.stdout`; call this earlier (before loading the code that is
 * served) to also divert what that code writes while it loads. Writes straight to file
 * descriptor 1 (`fs.writeSync(1, …)`) are not seen.
 */
export function reserveStdoutForMcp(): McpStdoutReservation {
  const stdout = process.stdout;
  if (installed === undefined) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- always called with `.call(stdout, …)`
    const original = stdout.write;
    const redirect = ((...args: Parameters<Write>) => process.stderr.write(...args)) as Write;
    installed = { original, own: Object.hasOwn(stdout, 'write'), redirect, holders: 0 };
    stdout.write = redirect;
  }
  installed.holders++;
  const { original } = installed;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        (original as WriteChunk).call(stdout, chunk, (error) => {
          callback(error ?? null);
        });
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  let released = false;
  return {
    protocol,
    release: () => {
      if (released || installed === undefined) return;
      released = true;
      if (--installed.holders > 0) return;
      // Restored only if nobody replaced the redirect in the meantime.
      if (stdout.write === installed.redirect) {
        if (installed.own) stdout.write = installed.original;
        else delete (stdout as Partial<typeof stdout>).write;
      }
      installed = undefined;
    },
  };
}
