/**
 * `golem/evals`: datasets, evaluators and experiments that score an agent (or a workflow, or any
 * async function) case by case — offline on recorded traffic (cassettes), reported as a terminal
 * table, a JSON file and a self-contained HTML page, compared baseline vs candidate, and gated in
 * CI (`golem eval`, `expect(report).toPass()`).
 * @packageDocumentation
 */
// Datasets.
export type { EvalCase, Dataset, DatasetInit } from './case';
export { defineDataset } from './dataset';
export { parseDataset, loadDataset, saveDataset } from './dataset-file';
export type {
  DatasetFileOptions,
  ParseDatasetOptions,
  InputValidator,
  DatasetFormat,
  EvaluatorFactory,
} from './dataset-file';
export { DATASET_JSON_SCHEMA } from './dataset-schema';
export { generateCases } from './generate-cases';
export type { GenerateCasesOptions } from './generate-cases';
// Evaluators.
export type { Evaluator, EvalContext, EvalScore, EvaluatorResult, EvalToolCall } from './evaluator';
export { evaluator } from './evaluators/custom';
export type { CustomEvaluatorOptions } from './evaluators/custom';
export { equals } from './evaluators/equals';
export { contains } from './evaluators/contains';
export type { Needle, ContainsOptions } from './evaluators/contains';
export type { NamedOptions } from './evaluators/options';
export { matchesSchema } from './evaluators/matches-schema';
export { isInstanceOf } from './evaluators/is-instance-of';
export type { AnyClass } from './evaluators/is-instance-of';
export { toolTrajectory, calledTool, neverCalled } from './evaluators/tool-trajectory';
export type {
  ExpectedToolCall,
  TrajectoryOrder,
  ArgsMatch,
  ToolTrajectoryOptions,
} from './evaluators/tool-trajectory';
export { maxTurns, maxRequests, maxLatency, maxTokens, maxCost } from './evaluators/budgets';
export type { TokenKind, MaxTokensOptions } from './evaluators/budgets';
export { eventCheck, hasEvent } from './evaluators/events';
export type { RunEventOf, EventCheckOptions, HasEventOptions } from './evaluators/events';
export { llmJudge } from './evaluators/llm-judge';
export type { LlmJudgeOptions, JudgeVerdict, JudgeInclude } from './evaluators/llm-judge';
export { pairwiseJudge } from './evaluators/pairwise-judge';
export type {
  PairwiseJudge,
  PairwiseVerdict,
  PairwiseJudgeOptions,
  PairwisePreference,
  PairwiseCompareOptions,
} from './evaluators/pairwise-judge';
// Experiments and cassettes.
export { runExperiment } from './experiment';
export { defineExperiment } from './define-experiment';
export { evalCassette } from './cassette-context';
export type {
  AgentCaseInput,
  AgentTask,
  EvalRunOptions,
  TaskContext,
  TaskEvidence,
  Task,
  CassetteMode,
  CassetteOptions,
  ExperimentProgress,
  ExperimentInfo,
  CaseRunInfo,
  CaseRunOutcome,
  ExperimentInstrumentation,
  ExperimentOptions,
  Experiment,
} from './experiment-types';
// Reports, comparisons and CI gates.
export type {
  ExperimentReport,
  CaseReport,
  CaseRun,
  CaseRunError,
  ReportSummary,
  EvaluatorSummary,
  LatencySummary,
  Comparison,
  CaseComparison,
  CaseChange,
  EvaluatorDiff,
  Thresholds,
  ThresholdCheck,
} from './report-types';
export { formatReport } from './report-format';
export type { FormatReportOptions } from './report-format';
export { formatComparison } from './comparison-format';
export type { FormatComparisonOptions } from './comparison-format';
export { writeReport, readReport } from './report-file';
export type { WriteReportOptions } from './report-file';
export { compareReports, comparePairwise } from './compare';
export type { CompareOptions, ComparePairwiseOptions } from './compare';
export { renderHtml } from './html-report';
export type { RenderHtmlOptions } from './html-report';
export { checkThresholds, assertThresholds } from './thresholds';
export { evalMatchers } from './matchers';
export type { EvalMatcherResult } from './matchers';
export { EvalError } from './eval-error';
export type { EvalErrorKind, EvalErrorInit } from './eval-error';
