import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpListChangedEvent, McpLogEvent, McpResourceUpdatedEvent } from './capability-types';
import type { FailureRegistry } from './failures';
import type { McpSdk } from './sdk';

/** The server's self-description from the handshake (untrusted). */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/** Notification observers of a session (each call is guarded: observers never break it). */
export interface SessionObservers {
  onToolsChanged?: ((event: { server: string }) => void) | undefined;
  onToolRejected?:
    ((event: { server: string; toolName: string; problem: string }) => void) | undefined;
  onListChanged?: ((event: McpListChangedEvent) => void) | undefined;
  onResourceUpdated?: ((event: McpResourceUpdatedEvent) => void) | undefined;
  onLog?: ((event: McpLogEvent) => void) | undefined;
}

/** What a session is built from. Internal. */
export interface SessionInit extends SessionObservers {
  sdk: McpSdk;
  client: Client;
  name: string;
  timeout: number;
  maxMessageBytes: number;
  failures: FailureRegistry;
  /** Values (header values, query values) never to show in errors. */
  secrets: readonly string[];
  /** Ends the HTTP session after the transport closed (see `connect.ts`); stdio: undefined. */
  endSession?: (() => Promise<void>) | undefined;
  /** Called when `close()` starts, before anything is closed. */
  onClosing?: (() => void) | undefined;
  /** Called once the transport is closed (before the session is ended). */
  onClosed?: (() => void) | undefined;
}
