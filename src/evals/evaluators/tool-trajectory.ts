import type { EvalToolCall, Evaluator } from '../evaluator';
import { firstDifference } from './deep-equal';
import { evaluatorConfigError, evaluatorName, type NamedOptions } from './options';
import { preview } from './preview';

/** One expected tool call: a tool name, or a name with the arguments expected. */
export type ExpectedToolCall = string | { readonly name: string; readonly args?: unknown };

/** How a trajectory's calls must line up with the expected list. */
export type TrajectoryOrder = 'exact' | 'in-order' | 'any';

/** How expected arguments compare with the call's. */
export type ArgsMatch = 'subset' | 'exact';

/** Options of {@link toolTrajectory}. */
export interface ToolTrajectoryOptions extends NamedOptions {
  /**
   * `'in-order'` (default): the expected calls appear in this order, other calls may come
   * between; `'exact'`: the calls are exactly the expected ones, in order, nothing else; `'any'`:
   * each expected call is made, in any order.
   */
  readonly order?: TrajectoryOrder;
  /**
   * `'subset'` (default): the expected arguments' keys must match, extra arguments are allowed;
   * `'exact'`: the arguments must deep-equal the expected ones. Calls expected without `args`
   * match by name alone.
   */
  readonly args?: ArgsMatch;
}

interface Expectation {
  readonly name: string;
  readonly args?: unknown;
  readonly hasArgs: boolean;
}

function toExpectation(owner: string, entry: unknown): Expectation {
  if (typeof entry === 'string' && entry !== '') return { name: entry, hasArgs: false };
  if (typeof entry === 'object' && entry !== null) {
    const { name, args } = entry as { name?: unknown; args?: unknown };
    if (typeof name === 'string' && name !== '') {
      return args === undefined ? { name, hasArgs: false } : { name, args, hasArgs: true };
    }
  }
  throw evaluatorConfigError(
    `${owner}: each expected call must be a tool name or { name, args? }, got ${preview(entry)}`,
    'expected',
  );
}

function callMatches(expected: Expectation, call: EvalToolCall, argsMode: ArgsMatch): boolean {
  if (call.name !== expected.name) return false;
  if (!expected.hasArgs) return true;
  return firstDifference(expected.args, call.args, { subset: argsMode === 'subset' }) === undefined;
}

function label(expected: Expectation): string {
  return expected.hasArgs ? `${expected.name}(${preview(expected.args, 50)})` : expected.name;
}

function callList(calls: readonly EvalToolCall[]): string {
  if (calls.length === 0) return 'no tool calls';
  const names = calls.slice(0, 8).map((call) => call.name);
  return `calls: ${names.join(', ')}${calls.length > 8 ? ', …' : ''}`;
}

/** Why an expected call did not match in place: never made, wrong args, or out of order. */
function whyMissing(
  expected: Expectation,
  calls: readonly EvalToolCall[],
  argsMode: ArgsMatch,
): string {
  const named = calls.filter((call) => call.name === expected.name);
  if (named.length === 0) return `never called ${expected.name}`;
  if (!named.some((call) => callMatches(expected, call, argsMode))) {
    const first = named[0];
    return `${expected.name} called with ${preview(first?.args, 50)}, expected args ${preview(expected.args, 50)}`;
  }
  return `${label(expected)} out of order`;
}

interface Verdict {
  readonly score: number;
  readonly pass: boolean;
  readonly reason: string;
}

function inOrder(
  expected: readonly Expectation[],
  calls: readonly EvalToolCall[],
  argsMode: ArgsMatch,
): Verdict {
  let next = 0;
  let matched = 0;
  let failure: string | undefined;
  for (const [index, want] of expected.entries()) {
    let found = -1;
    for (let at = next; at < calls.length; at += 1) {
      const call = calls[at];
      if (call !== undefined && callMatches(want, call, argsMode)) {
        found = at;
        break;
      }
    }
    if (found >= 0) {
      matched += 1;
      next = found + 1;
    } else if (failure === undefined) {
      failure = `expected call ${index + 1} of ${expected.length}: ${whyMissing(want, calls, argsMode)}`;
    }
  }
  return verdictOf(matched, expected.length, failure, calls);
}

function anyOrder(
  expected: readonly Expectation[],
  calls: readonly EvalToolCall[],
  argsMode: ArgsMatch,
): Verdict {
  const used = new Set<number>();
  let matched = 0;
  let failure: string | undefined;
  for (const want of expected) {
    const found = calls.findIndex((call, at) => !used.has(at) && callMatches(want, call, argsMode));
    if (found >= 0) {
      used.add(found);
      matched += 1;
    } else if (failure === undefined) {
      const named = calls.filter((call) => call.name === want.name).length;
      failure =
        named > 0 && calls.some((call) => callMatches(want, call, argsMode))
          ? `expected ${label(want)} once more than it was called`
          : whyMissing(want, calls, argsMode);
    }
  }
  return verdictOf(matched, expected.length, failure, calls);
}

function exact(
  expected: readonly Expectation[],
  calls: readonly EvalToolCall[],
  argsMode: ArgsMatch,
): Verdict {
  const length = Math.max(expected.length, calls.length);
  if (length === 0) return { score: 1, pass: true, reason: 'no tool calls, as expected' };
  let matched = 0;
  let failure: string | undefined;
  for (let index = 0; index < length; index += 1) {
    const want = expected[index];
    const call = calls[index];
    if (want !== undefined && call !== undefined && callMatches(want, call, argsMode)) {
      matched += 1;
      continue;
    }
    if (failure !== undefined) continue;
    const position = `call ${index + 1}`;
    if (want === undefined) failure = `${position}: unexpected extra call ${call?.name ?? ''}`;
    else if (call === undefined) failure = `${position}: expected ${label(want)}, found no call`;
    else if (call.name !== want.name) {
      failure = `${position}: expected ${want.name}, found ${call.name}`;
    } else {
      failure = `${position}: ${want.name} called with ${preview(call.args, 50)}, expected args ${preview(want.args, 50)}`;
    }
  }
  return verdictOf(matched, length, failure, calls);
}

function verdictOf(
  matched: number,
  total: number,
  failure: string | undefined,
  calls: readonly EvalToolCall[],
): Verdict {
  if (total === 0) return { score: 1, pass: true, reason: 'no calls expected' };
  const score = matched / total;
  if (failure === undefined) {
    return { score, pass: true, reason: `all ${total} expected calls made (${callList(calls)})` };
  }
  return { score, pass: false, reason: `${failure} (${callList(calls)})` };
}

/**
 * Checks the run's tool calls against an expected list of tool names or `{ name, args }`. The
 * score is the share of expected calls matched (for `order: 'exact'`: of positions); it passes
 * when all match. The reason names the first call missing, out of order or with the wrong
 * arguments, and lists the calls made.
 *
 * ```ts
 * toolTrajectory(['search', { name: 'book_table', args: { people: 2 } }]);
 * ```
 */
export function toolTrajectory(
  expected: readonly ExpectedToolCall[],
  options: ToolTrajectoryOptions = {},
): Evaluator {
  const name = evaluatorName(options.name, 'toolTrajectory');
  if (!Array.isArray(expected)) {
    throw evaluatorConfigError(
      'toolTrajectory: expected must be a list of tool names or { name, args? }',
      'expected',
    );
  }
  const wanted = expected.map((entry: unknown) => toExpectation('toolTrajectory', entry));
  const order: unknown = options.order ?? 'in-order';
  const argsMode: unknown = options.args ?? 'subset';
  if (order !== 'exact' && order !== 'in-order' && order !== 'any') {
    throw evaluatorConfigError(
      `toolTrajectory: order ${preview(order)} is unknown; use 'exact', 'in-order' or 'any'`,
      'order',
    );
  }
  if (argsMode !== 'subset' && argsMode !== 'exact') {
    throw evaluatorConfigError(
      `toolTrajectory: args ${preview(argsMode)} is unknown; use 'subset' or 'exact'`,
      'args',
    );
  }
  const check = order === 'exact' ? exact : order === 'any' ? anyOrder : inOrder;
  return { name, evaluate: (ctx) => ({ ...check(wanted, ctx.toolCalls, argsMode) }) };
}

/**
 * Passes when the run called tool `tool` at least once — with arguments matching `args` (a
 * subset: the keys given must match) when given. Named `calledTool(<tool>)` by default.
 */
export function calledTool(tool: string, args?: unknown, options: NamedOptions = {}): Evaluator {
  const want = toExpectation('calledTool', args === undefined ? tool : { name: tool, args });
  const name = evaluatorName(options.name, `calledTool(${want.name})`);
  return {
    name,
    evaluate: (ctx) => {
      const count = ctx.toolCalls.filter((call) => callMatches(want, call, 'subset')).length;
      if (count > 0) {
        return {
          pass: true,
          reason: `${label(want)} called ${count} time${count === 1 ? '' : 's'}`,
        };
      }
      return {
        pass: false,
        reason: `expected a call to ${label(want)}: ${whyMissing(want, ctx.toolCalls, 'subset')} (${callList(ctx.toolCalls)})`,
      };
    },
  };
}

/**
 * Passes when the run never called `tool` (or any of the tools listed). Named
 * `neverCalled(<tools>)` by default.
 */
export function neverCalled(
  tool: string | readonly string[],
  options: NamedOptions = {},
): Evaluator {
  const tools: readonly unknown[] = typeof tool === 'string' ? [tool] : tool;
  if (
    !Array.isArray(tools) ||
    tools.length === 0 ||
    !tools.every((each) => typeof each === 'string' && each !== '')
  ) {
    throw evaluatorConfigError(
      `neverCalled: pass a tool name or a non-empty list of names, got ${preview(tool)}`,
      'tool',
    );
  }
  const names = tools as readonly string[];
  const name = evaluatorName(options.name, `neverCalled(${names.join(', ')})`);
  return {
    name,
    evaluate: (ctx) => {
      const made = ctx.toolCalls.filter((call) => names.includes(call.name));
      const first = made[0];
      if (first === undefined) return { pass: true, reason: `${names.join(', ')} never called` };
      return {
        pass: false,
        reason: `expected no call to ${names.join(', ')}, found ${made.length} (first: ${first.name} with ${preview(first.args, 50)})`,
      };
    },
  };
}
