/**
 * `golem/middleware`: layers around model calls and tool executions (the core's `Middleware`
 * contract, `wrapModel`), and the ones Golem ships: default settings, request logging with
 * redaction, PII redaction, a response cache, shared rate limits and spend caps.
 * @packageDocumentation
 */
export type { Middleware } from '../core/engine/middleware';
export type { ModelCall, StreamCall, ToolInvocation } from '../core/engine/middleware';
export { wrapModel } from '../core/engine/middleware-chain';
