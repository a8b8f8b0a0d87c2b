import type { Tool } from '../../core/tool/tool';

/** An agent served as one tool taking a prompt (anything with `asTool`, e.g. a golem `Agent`). */
export interface McpServedAgent<Deps> {
  /**
   * The agent. A golem `Agent` with a run `store` also gets the request's `owner` (see
   * {@link McpServeOptions.owner}) on every run it starts for a call.
   */
  agent: {
    /** The agent as a tool; `options.owner` (a golem `Agent`'s) stores its runs with that owner. */
    asTool(name: string, description: string, options?: { owner?: string }): Tool<Deps>;
    /** The agent's run store, if any (a golem `Agent`'s `store`). */
    readonly store?: unknown;
  };
  /** The tool's name, e.g. `ask_weather`. */
  name: string;
  /** What the agent does, for the calling model. */
  description: string;
}

/** Who is calling: what a `deps` factory may use to build per-request dependencies. */
export interface McpRequestInfo {
  /** The MCP session (Streamable HTTP), if any. */
  readonly sessionId: string | undefined;
  /** HTTP request headers (Streamable HTTP), if any. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** The verified OAuth token info set by an auth middleware on the request, if any. */
  readonly authInfo: unknown;
}

/** Options of {@link createMcpServer}. */
export interface McpServeOptions<Deps = undefined> {
  /** The server's name and version in the handshake; default `golem` / `0`. */
  name?: string;
  version?: string;
  /** Instructions for the client (how to use these tools). */
  instructions?: string;
  /** Tools to serve, by their names (a clash is an error). */
  tools?: readonly Tool<Deps>[];
  /** Agents to serve, each as one tool taking `{ prompt }`. */
  agents?: readonly McpServedAgent<Deps>[];
  /** The `deps` every call receives. */
  deps?: Deps;
  /**
   * Builds the `deps` of each call from the request (per-user dependencies); wins over `deps`.
   * It runs under the call's deadline; a throw or rejection answers `tool <name> failed` like a
   * failing tool (its message only with `exposeErrors`; `onError` sees it).
   */
  depsFor?: (request: McpRequestInfo) => Deps | Promise<Deps>;
  /**
   * The run owner of each call, from the request (e.g. a verified token's subject in
   * `authInfo`): every run a served agent with a run store starts for the call is stored with
   * it. `undefined` starts an unowned run. A throw or rejection fails the call like `depsFor`.
   * The server never loads, lists, resumes or cancels stored runs, so nothing else needs it.
   */
  owner?: (request: McpRequestInfo) => string | undefined | Promise<string | undefined>;
  /** Deadline in ms of a call whose tool sets no `timeout`; default 60 000; 0 = none. */
  timeout?: number;
  /** Validate arguments against each tool's JSON Schema before it runs; default true. */
  validateInput?: boolean;
  /**
   * Show an unexpected error's message to the client (`tool x failed: <message>`); default false
   * (`tool x failed`): messages may hold internals. `ModelRetry` texts are always shown.
   */
  exposeErrors?: boolean;
  /** Observes every unexpected tool failure (for logs); its exceptions are swallowed. */
  onError?: (error: unknown, toolName: string) => void;
}
