import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpRoot } from './capability-types';
import type { McpSdk } from './sdk';

/**
 * The roots the client offers (`roots/list`), from configuration. `set` replaces them and tells
 * the server with `notifications/roots/list_changed` (the server then lists them again).
 */
export class RootsState {
  private current: readonly McpRoot[];
  private readonly client: Client;

  constructor(sdk: McpSdk, client: Client, roots: readonly McpRoot[]) {
    this.current = roots;
    this.client = client;
    client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({
      roots: this.current.map((root) => ({ ...root })),
    }));
  }

  /** The roots offered now. */
  get roots(): readonly McpRoot[] {
    return this.current;
  }

  /** Replaces the roots and notifies the server. */
  async set(roots: readonly McpRoot[]): Promise<void> {
    this.current = roots;
    await this.client.sendRootsListChanged();
  }
}
