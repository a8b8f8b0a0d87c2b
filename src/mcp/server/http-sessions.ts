/* eslint-disable @typescript-eslint/no-deprecated -- the low-level SDK `Server` is deliberate: golem tools carry JSON Schemas, which McpServer's zod-based registration cannot take */
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Default cap on the open sessions of one HTTP handler. */
export const DEFAULT_MAX_SESSIONS = 100;
/** Default time (ms) after which a session with no open request ends: 10 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT = 10 * 60 * 1000;

/** One Streamable HTTP session: its SDK server and transport, and what is open on it. */
export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** Requests (event streams included) being answered on this session right now. */
  open: number;
  /** Ends the session once it stayed idle for the idle timeout. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The open sessions of one HTTP handler, least recently used first. At most `maxSessions` exist:
 * a new one makes room by ending the least recently used idle session (one with no request or
 * event stream open), and is refused when every session is busy. A session idle for
 * `idleTimeout` ms ends on its own (0 = never). Internal.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  /** Sessions being opened (their `initialize` is being answered; no id yet). */
  private opening = 0;

  constructor(
    private readonly maxSessions: number,
    private readonly idleTimeout: number,
  ) {}

  /** The session `id`, marked as just used; undefined when it is unknown or ended. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /**
   * Makes room for a new session: true when one may open (ending the least recently used idle
   * session if the cap is reached), false when every session is busy. A true answer reserves the
   * room until {@link opened} or {@link abandoned}.
   */
  async reserve(): Promise<boolean> {
    if (this.sessions.size + this.opening < this.maxSessions) {
      this.opening++;
      return true;
    }
    const idle = [...this.sessions].find(([, s]) => s.open === 0);
    if (idle === undefined) return false;
    // `end` forgets the session at once: the room is taken before anything else can run.
    const ending = this.end(idle[0]);
    this.opening++;
    await ending;
    return true;
  }

  /** The reserved session got its id (the SDK's `onsessioninitialized`). */
  opened(id: string, session: HttpSession): void {
    this.opening--;
    this.sessions.set(id, session);
  }

  /** The reserved session never got an id (its `initialize` failed). */
  abandoned(): void {
    this.opening--;
  }

  /** Counts `res` as open on `session` until it closes; the idle clock restarts then. */
  track(id: () => string | undefined, session: HttpSession, res: ServerResponse): void {
    session.open++;
    if (session.timer !== undefined) clearTimeout(session.timer);
    session.timer = undefined;
    res.once('close', () => {
      session.open--;
      const sessionId = id();
      if (session.open > 0 || sessionId === undefined || this.idleTimeout === 0) return;
      if (this.sessions.get(sessionId) !== session) return;
      session.timer = setTimeout(() => {
        void this.end(sessionId);
      }, this.idleTimeout);
      session.timer.unref();
    });
  }

  /** Forgets session `id` (its transport closed: `DELETE`, eviction, expiry). */
  forget(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    if (session.timer !== undefined) clearTimeout(session.timer);
    this.sessions.delete(id);
  }

  /** Ends session `id`: forgotten at once, its SDK server closed. */
  async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.forget(id);
    await session.server.close().catch(() => undefined);
  }

  /** Ends every session. */
  async endAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }
}
