/**
 * `golem/decorators`: agents as decorated classes. `@Agent`, `@Instructions`, `@Tool`,
 * `@Output`, `@Describe` and `@Nullable` record metadata; `compileAgentClass` compiles a class
 * once into a frozen definition (tools with JSON Schemas from class-validator metadata,
 * instructions, output decoder); `agentFromClass` turns an instance into an engine `Agent`.
 * Needs the peers class-validator, class-transformer, class-validator-jsonschema and
 * reflect-metadata: it checks they are installed first (a `missing-peer` `ConfigError` names the
 * `npm install` command), then imports `reflect-metadata` itself, so decorated classes always see
 * it. The other three load on first use (compiling a DTO, validating, `@Describe`, `@Nullable`),
 * which keeps importing this entry point cheap. `@Workflow` and `@Step` declare durable workflows
 * as classes; `workflowFromClass` compiles one into a `golem/workflows` definition.
 * @packageDocumentation
 */
import './peers';
import 'reflect-metadata';

export { Agent } from './agent-decorator';
export type { AgentOptions } from './agent-options';
export { Instructions } from './instructions-decorator';
export type { InstructionsMethod } from './instructions-decorator';
export { Tool } from './tool-decorator';
export type { ToolMethod } from './tool-decorator';
export type { ToolOptions } from './tool-options';
export { Output } from './output-decorator';
export type { OutputOptions } from './output-options';
export { Describe } from './describe-decorator';
export { Nullable } from './nullable-decorator';
export { NoArgs } from './no-args';
export { Guardrail } from './guardrail-decorator';
export { WorkingMemory } from './working-memory-decorator';
export type { WorkingMemoryDecoratorOptions } from './working-memory-decorator';
export { workingMemoryOf } from './compile/compile-working-memory';
export type { WorkingMemoryDefinition } from './compile/compile-working-memory';
export {
  UseMiddleware,
  middlewareOf,
  resolveMiddleware,
  isMiddlewareObject,
} from './use-middleware-decorator';
export type { MiddlewareEntry, MiddlewareClass } from './use-middleware-decorator';
export type {
  GuardrailOptions,
  GuardrailMethod,
  GuardrailMethodPhase,
} from './guardrail-decorator';

export { OUTPUT_TYPE, DEPS_TYPE, PAUSABLE_TYPE } from './markers';
export type {
  OutputOf,
  DepsOf,
  PausableOf,
  AnyClass,
  OutputTypeCheck,
  PausableTypeCheck,
} from './markers';

export { compileAgentClass } from './compile/compile-agent';
export type {
  AgentDefinition,
  ToolDefinitionInfo,
  InstructionsPiece,
  OutputDefinitionInfo,
  GuardrailDefinitionInfo,
} from './compile/definition';
export { agentFromClass } from './agent-from-class';
export { classTools } from './class-tools';
export type { AgentFromClassOptions } from './agent-from-class';

export { Handoff, handoffsOf } from './handoff-decorator';
export type {
  HandoffDecoratorOptions,
  HandoffDeclaration,
  HandoffFilter,
  HandoffTarget,
} from './handoff-decorator';
export { boundHandoffs } from './bound-handoffs';
export type { HandoffEntry } from './bound-handoffs';
export { Workflow } from './workflow-decorator';
export type { WorkflowDecoratorOptions } from './workflow-decorator';
export { Step } from './step-decorator';
export type { StepDecoratorOptions, StepMethod } from './step-decorator';
export { compileWorkflowClass, isWorkflowClass } from './compile/compile-workflow';
export type { WorkflowClassDefinition, WorkflowStepInfo } from './compile/workflow-definition';
export { workflowFromClass } from './workflow-from-class';
export type {
  WorkflowClass,
  WorkflowInputOf,
  WorkflowOutputOf,
  WorkflowOf,
} from './workflow-from-class';

export { Evaluator, evaluatorFromClass, isEvaluatorClass } from './evaluator';
export type { EvaluatorDecoratorOptions, EvaluatorInstance, EvaluatorClass } from './evaluator';

export { dtoSchema } from './schema/dto-schema';
export { STANDARD_FORMATS } from './schema/canonical';
export { validateDto, VALIDATOR_OPTIONS } from './validation/validate-dto';
export { INPUT_LIMITS } from './validation/input-guard';
export { snakeCase } from './naming';
