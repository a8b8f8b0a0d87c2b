import { SDK_TIMEOUT } from './deadline';
import { McpResourceTooLargeError } from './feature-errors';
import { listAll } from './listing';
import { fail } from './option-checks';
import type { McpSession } from './session';

/** A resource the server lists (untrusted text). */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes, when the server tells. */
  readonly size?: number;
}

/** A parameterised resource (RFC 6570 URI template, e.g. `demo://item/{id}`). */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One item of a read resource: text, or binary data (decoded from base64). */
export interface McpResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: Uint8Array;
}

/** Options of `readResource`. */
export interface McpReadResourceOptions {
  /** Largest total size accepted (text as UTF-8, blobs decoded); default 1 MiB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** Default cap of `readResource`, in bytes. */
export const DEFAULT_MAX_RESOURCE_BYTES = 1024 * 1024;

/** Every resource of the server (following pagination, at most 1000). */
export async function listResources(session: McpSession): Promise<McpResource[]> {
  session.requireCapability('resources', 'resources/list');
  const listed = await listAll(session, 'resources/list', async (params, signal) => {
    const result = await session.client.listResources(params, { signal, timeout: SDK_TIMEOUT });
    return { items: result.resources, nextCursor: result.nextCursor };
  });
  return listed.map((r) =>
    Object.freeze({
      uri: r.uri,
      name: r.name,
      ...(r.title !== undefined && { title: r.title }),
      ...(r.description !== undefined && { description: r.description }),
      ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
      ...(r.size !== undefined && { size: r.size }),
    }),
  );
}

/** Every resource template of the server (following pagination). */
export async function listResourceTemplates(session: McpSession): Promise<McpResourceTemplate[]> {
  session.requireCapability('resources', 'resources/templates/list');
  const listed = await listAll(session, 'resources/templates/list', async (params, signal) => {
    const result = await session.client.listResourceTemplates(params, {
      signal,
      timeout: SDK_TIMEOUT,
    });
    return { items: result.resourceTemplates, nextCursor: result.nextCursor };
  });
  return listed.map((t) =>
    Object.freeze({
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.title !== undefined && { title: t.title }),
      ...(t.description !== undefined && { description: t.description }),
      ...(t.mimeType !== undefined && { mimeType: t.mimeType }),
    }),
  );
}

/**
 * Reads a resource: text items as strings, blobs decoded to bytes. More than `maxBytes` in total
 * is refused with `McpResourceTooLargeError` (the message itself is capped by `maxMessageBytes`).
 */
export async function readResource(
  session: McpSession,
  uri: string,
  options: McpReadResourceOptions = {},
): Promise<McpResourceContents[]> {
  if (typeof uri !== 'string' || uri === '') fail('uri', 'must be a non-empty resource URI');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  session.requireCapability('resources', 'resources/read');
  const result = await session.request(
    'resources/read',
    (signal) => session.client.readResource({ uri }, { signal, timeout: SDK_TIMEOUT }),
    { signal: options.signal },
  );
  let total = 0;
  return result.contents.map((item) => {
    const base = {
      uri: item.uri,
      ...(item.mimeType !== undefined && { mimeType: item.mimeType }),
    };
    if ('text' in item && typeof item.text === 'string') {
      total += Buffer.byteLength(item.text);
      if (total > maxBytes) throw new McpResourceTooLargeError(session.name, uri, maxBytes);
      return Object.freeze({ ...base, text: item.text });
    }
    const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : '';
    total += Math.floor((blob.length * 3) / 4);
    if (total > maxBytes + 2) throw new McpResourceTooLargeError(session.name, uri, maxBytes);
    return Object.freeze({ ...base, blob: new Uint8Array(Buffer.from(blob, 'base64')) });
  });
}

/** `resources/subscribe` (the server must offer `resources.subscribe`). */
export async function subscribeResource(session: McpSession, uri: string): Promise<void> {
  if (typeof uri !== 'string' || uri === '') fail('uri', 'must be a non-empty resource URI');
  session.requireCapability('resources', 'resources/subscribe', 'subscribe');
  await session.request('resources/subscribe', (signal) =>
    session.client.subscribeResource({ uri }, { signal, timeout: SDK_TIMEOUT }),
  );
}

/** `resources/unsubscribe`. */
export async function unsubscribeResource(session: McpSession, uri: string): Promise<void> {
  session.requireCapability('resources', 'resources/unsubscribe', 'subscribe');
  await session.request('resources/unsubscribe', (signal) =>
    session.client.unsubscribeResource({ uri }, { signal, timeout: SDK_TIMEOUT }),
  );
}
