import type { JsonSchema, Tool } from '../../src/core/index';
import type { AgentOptions } from '../agent-options';

/** A compiled `@Tool` method. */
export interface ToolDefinitionInfo {
  /** The tool name the model calls. */
  readonly name: string;
  /** The method it runs. */
  readonly member: string | symbol;
  /** The class whose `@Tool` declared it (a base class for inherited tools). */
  readonly declaredBy: string;
  readonly description: string;
  /** The JSON Schema advertised to the model. */
  readonly schema: JsonSchema;
  /** The argument DTO class; `undefined` for a tool without arguments. */
  readonly args: (new () => object) | undefined;
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly sequential?: boolean;
  readonly idempotent?: boolean;
  readonly approval?: Tool<never>['approval'];
  /** Validates untrusted arguments into an `args` instance, or throws `ModelRetry`. */
  readonly parse: (args: unknown) => object;
}

/** A piece of the compiled instructions: static text, or a method evaluated per run. */
export type InstructionsPiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'method'; readonly member: string | symbol; readonly declaredBy: string };

/** The compiled `@Output`. */
export interface OutputDefinitionInfo {
  readonly dto: new () => object;
  readonly mode: 'native' | 'tool';
  /** The output tool's name (tool mode). */
  readonly name: string;
  readonly description: string | undefined;
  /** The JSON Schema advertised to the model. */
  readonly schema: JsonSchema;
  /** Validates an untrusted value into a `dto` instance, or throws `ModelRetry`. */
  readonly parse: (value: unknown) => object;
}

/** A decorated class, compiled once (frozen, cached per class). */
export interface AgentDefinition {
  readonly target: abstract new (...args: never[]) => object;
  readonly className: string;
  /** The model binding name (`@Agent({ model })`), default `'default'`. */
  readonly model: string;
  /** The engine options declared by `@Agent` (merged over the bases'), without `model`. */
  readonly options: Readonly<Omit<AgentOptions, 'model'>>;
  readonly instructions: readonly InstructionsPiece[];
  readonly tools: readonly ToolDefinitionInfo[];
  readonly output: OutputDefinitionInfo | undefined;
  /** The `@Guardrail` methods, base classes' first, in declaration order. */
  readonly guardrails: readonly GuardrailDefinitionInfo[];
}

/** A compiled `@Guardrail` method. */
export interface GuardrailDefinitionInfo {
  /** The guardrail's name (events, errors): `options.name`, default the method name. */
  readonly name: string;
  readonly member: string | symbol;
  readonly phase: 'input' | 'output' | 'tool_input' | 'tool_output';
  /** Input guardrails: `'sequential'` (default) or `'parallel'`. */
  readonly mode?: 'sequential' | 'parallel';
  /** Output and tool guardrails: `'fail'` (default) or `'retry'`. */
  readonly onTrip?: 'fail' | 'retry';
  /** Tool guardrails: the tool names checked (default all). */
  readonly tools?: readonly string[];
}
