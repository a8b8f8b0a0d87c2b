import { diffDefinitions, type McpToolChange, type McpToolDefinition } from './definitions';
import { listServerTools } from './listing';
import type { McpSession } from './session';

/**
 * The server's tool definitions, pinned: the first listing is approved implicitly; later listings
 * are compared with the approved set. A `tools/list_changed` notification marks the catalog stale
 * and the next read lists again.
 */
export class ToolCatalog {
  private readonly session: McpSession;
  private latest: ReadonlyMap<string, McpToolDefinition> | undefined;
  /** The tools of the latest listing left out, with why (name → problem). */
  private rejectedTools: ReadonlyMap<string, string> = new Map<string, string>();
  /** Left-out tools already reported for the latest listing. */
  private readonly reported = new Set<string>();
  private approvedDefs: ReadonlyMap<string, McpToolDefinition> | undefined;
  private staleFlag = false;
  private refreshing: Promise<McpToolChange[]> | undefined;

  constructor(session: McpSession) {
    this.session = session;
    session.onToolsChanged(() => {
      this.staleFlag = true;
    });
  }

  /** True once the server announced a change that has not been fetched yet. */
  get stale(): boolean {
    return this.staleFlag;
  }

  /** Lists afresh and returns the changes against the approved set (concurrent calls share one). */
  refresh(): Promise<McpToolChange[]> {
    this.session.ensureOpen('tools/list');
    this.refreshing ??= (async () => {
      this.staleFlag = false;
      try {
        const { definitions: current, rejected } = await listServerTools(this.session);
        this.latest = current;
        this.rejectedTools = rejected;
        this.reported.clear();
        this.approvedDefs ??= current;
        return diffDefinitions(this.approvedDefs, current);
      } catch (error) {
        this.staleFlag = true;
        throw error;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** The latest definitions (listed first when none are known or the list is stale). */
  async current(): Promise<ReadonlyMap<string, McpToolDefinition>> {
    if (this.latest === undefined || this.staleFlag) await this.refresh();
    return this.latest ?? new Map<string, McpToolDefinition>();
  }

  /** The tools of the latest listing that were left out, with why (name → problem). */
  get rejected(): ReadonlyMap<string, string> {
    return this.rejectedTools;
  }

  /** True the first time `name` is asked about since the latest listing (report it once). */
  firstReport(name: string): boolean {
    if (this.reported.has(name)) return false;
    this.reported.add(name);
    return true;
  }

  /** The approved definitions, or `fallback` before the first listing. */
  approved(
    fallback: ReadonlyMap<string, McpToolDefinition>,
  ): ReadonlyMap<string, McpToolDefinition> {
    return this.approvedDefs ?? fallback;
  }

  /** Accepts the latest listing as the approved definitions. */
  approve(): void {
    if (this.latest !== undefined) this.approvedDefs = this.latest;
  }
}
