import { createHash, randomUUID } from 'node:crypto';
import type { MemoryContext } from '../core/agent/memory-port';
import type { JsonValue, Message } from '../core/index';
import type { RecallEntry, RecallHit, RecallQuery } from '../core/durable/recall-port';
import { chunkText } from './chunk';
import { memoryScopeError } from './errors';
import type { MemoryScope, RecallOptions } from './options';
import { recalledBlock } from './recall-block';

/** A document an app adds to an owner's recall (`memory.addDocuments`). */
export interface MemoryDocument {
  /** Stable id: its chunks are stored as `<id>#0`, `<id>#1`, … (adding it again replaces them). */
  id: string;
  /** The text; long texts are split into chunks (see `addDocuments`). */
  text: string;
  /** Kept with every chunk's entry (JSON values). */
  metadata?: Record<string, JsonValue>;
}

/** The text of a message worth indexing: a user or assistant message's non-empty `content`. */
export function indexableText(message: Message): string | undefined {
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  const text = message.content?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** A message to index: its entry id, text and role. */
interface IndexedMessage {
  id: string;
  text: string;
  role: string;
}

/**
 * The indexable messages of `messages` with their entry ids: `<key>:<hash>`, the hash of the
 * role and text (the first 16 hex digits of SHA-256). Content ids, not positions: the history a
 * run sees may be trimmed by a history processor, so positions are not stable; one text said
 * twice in a thread is one entry.
 */
export function messagesOf(key: string, messages: readonly Message[]): IndexedMessage[] {
  const indexed: IndexedMessage[] = [];
  const seen = new Set<string>();
  for (const message of messages) {
    const text = indexableText(message);
    if (text === undefined) continue;
    const hash = createHash('sha256').update(`${message.role}\n${text}`).digest('hex').slice(0, 16);
    const id = `${key}:${hash}`;
    if (seen.has(id)) continue;
    seen.add(id);
    indexed.push({ id, text, role: message.role });
  }
  return indexed;
}

/** Semantic recall over a `RecallStore`. Internal to `Memory`. */
export class SemanticRecall {
  readonly scope: MemoryScope;
  private readonly topK: number;
  private readonly maxTokens: number;

  constructor(private readonly options: RecallOptions) {
    this.scope = options.scope ?? 'owner';
    this.topK = options.topK ?? 5;
    this.maxTokens = options.maxTokens ?? 1000;
  }

  /**
   * Indexes the history messages not stored yet (catch-up), then embeds the prompt and renders
   * the best entries as a `<recalled_context>` block; `undefined` when nothing is recalled.
   */
  async recall(context: MemoryContext): Promise<string | undefined> {
    const owner = this.ownerOf(context);
    if (context.conversationId !== undefined) await this.catchUp(context, owner);
    if (context.prompt.trim() === '') return undefined;
    const { embedding } = await this.options.embedder.embed(context.prompt, {
      purpose: 'query',
      signal: context.signal,
    });
    const query: RecallQuery = { owner, embedding, topK: Math.min(this.topK * 2, 1000) };
    if (this.options.minScore !== undefined) query.minScore = this.options.minScore;
    if (this.scope === 'thread') query.conversationId = context.conversationId;
    else if (context.conversationId !== undefined)
      query.excludeConversationId = context.conversationId;
    if (this.scope === 'thread' || this.options.includeDocuments === false)
      query.kinds = ['message'];
    const seen = new Set([context.prompt.trim()]);
    for (const message of context.history) {
      const text = indexableText(message);
      if (text !== undefined) seen.add(text);
    }
    const hits = (await this.options.store.query(query)).filter(
      (hit: RecallHit) => !seen.has(hit.entry.text),
    );
    return recalledBlock(hits.slice(0, this.topK), this.maxTokens);
  }

  /** Stores the run's new user and assistant messages (tool calls and results are skipped). */
  async remember(context: MemoryContext, added: readonly Message[]): Promise<void> {
    const owner = this.ownerOf(context);
    const thread = context.conversationId;
    const key = thread ?? `run:${randomUUID()}`;
    await this.index(owner, thread, messagesOf(key, added), context.signal);
  }

  /**
   * Adds documents to `owner`'s recall: each is split into chunks of at most 2,000 characters
   * (whole paragraphs packed together), embedded and stored as `<id>#<n>` (adding a document again
   * replaces those entries).
   */
  async addDocuments(
    owner: string,
    documents: readonly MemoryDocument[],
    signal?: AbortSignal,
  ): Promise<void> {
    const entries: {
      id: string;
      documentId: string;
      text: string;
      metadata?: Record<string, JsonValue>;
    }[] = [];
    for (const document of documents) {
      chunkText(document.text).forEach((text, n) => {
        entries.push({
          id: `${document.id}#${n}`,
          documentId: document.id,
          text,
          ...(document.metadata !== undefined && { metadata: document.metadata }),
        });
      });
    }
    if (entries.length === 0) return;
    const vectors = await this.embedDocuments(
      entries.map((e) => e.text),
      signal,
    );
    const now = Date.now();
    await this.options.store.upsert(
      entries.map((e, i): RecallEntry => ({
        id: e.id,
        owner,
        kind: 'document',
        documentId: e.documentId,
        text: e.text,
        embedding: vectors[i] ?? [],
        ...(e.metadata !== undefined && { metadata: e.metadata }),
        createdAt: now,
      })),
    );
  }

  private ownerOf(context: MemoryContext): string {
    if (context.owner === undefined || context.owner === '')
      throw memoryScopeError('owner', 'semantic recall');
    if (this.scope === 'thread' && context.conversationId === undefined)
      throw memoryScopeError('conversation', 'semantic recall');
    return context.owner;
  }

  /** Indexes the messages of the run's stored history that are not in the store yet. */
  private async catchUp(context: MemoryContext, owner: string): Promise<void> {
    const thread = context.conversationId as string;
    const candidates = messagesOf(thread, context.history);
    if (candidates.length === 0) return;
    const stored = await this.options.store.has(
      owner,
      candidates.map((c) => c.id),
    );
    await this.index(
      owner,
      thread,
      candidates.filter((c) => !stored.has(c.id)),
      context.signal,
    );
  }

  private async index(
    owner: string,
    thread: string | undefined,
    messages: readonly IndexedMessage[],
    signal: AbortSignal,
  ): Promise<void> {
    if (messages.length === 0) return;
    const vectors = await this.embedDocuments(
      messages.map((m) => m.text),
      signal,
    );
    const now = Date.now();
    await this.options.store.upsert(
      messages.map((m, i): RecallEntry => ({
        id: m.id,
        owner,
        kind: 'message',
        ...(thread !== undefined && { conversationId: thread }),
        text: m.text,
        embedding: vectors[i] ?? [],
        metadata: { role: m.role },
        createdAt: now,
      })),
    );
  }

  private async embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const { embeddings } = await this.options.embedder.embedMany(texts, {
      purpose: 'document',
      ...(signal !== undefined && { signal }),
    });
    return embeddings;
  }
}
