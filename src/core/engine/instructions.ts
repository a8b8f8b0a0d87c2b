import { describeError } from '../kit/error-base';
import { RunInputError } from './errors';

/** What instructions functions and decoders receive about the run. */
export interface RunContext<Deps> {
  /** The run's dependency value. */
  readonly deps: Deps;
  /** The run's cancellation signal. */
  readonly signal: AbortSignal;
  /** The run's `owner` (the tenant or user key it was started with), when it has one. */
  readonly owner?: string;
  /** The stored conversation the run continues (its `conversation` option), when it has one. */
  readonly conversationId?: string;
}

/**
 * Instructions resolved per run from the run context.
 * @inline
 */
export type InstructionsFunction<Deps> = (ctx: RunContext<Deps>) => string | Promise<string>;

/** Static text, a function, or a list of both, resolved in order and joined by a blank line. */
export type Instructions<Deps> =
  string | InstructionsFunction<Deps> | readonly (string | InstructionsFunction<Deps>)[];

/** Resolves instructions once for a run; empty pieces contribute nothing. */
export async function resolveInstructions<Deps>(
  instructions: Instructions<Deps> | undefined,
  ctx: RunContext<Deps>,
): Promise<string> {
  if (instructions === undefined) return '';
  const pieces =
    typeof instructions === 'string' || typeof instructions === 'function'
      ? [instructions]
      : instructions;
  const texts: string[] = [];
  for (const [i, piece] of pieces.entries()) {
    let text: unknown = piece;
    if (typeof piece === 'function') {
      try {
        text = await piece(ctx);
      } catch (cause) {
        throw new RunInputError(`instructions function ${i} failed: ${describeError(cause)}`, {
          cause,
        });
      }
    }
    if (text === undefined || text === null) continue;
    if (typeof text !== 'string')
      throw new RunInputError(
        `instructions function ${i} returned ${typeof text}; return a string`,
      );
    if (text !== '') texts.push(text);
  }
  return texts.join('\n\n');
}

/**
 * Instructions that are only text (a string, or a list of strings), joined as a run joins them
 * (`''` for none); `undefined` when a function is among them (they resolve per run). Internal.
 */
export function fixedInstructionsText<Deps>(
  instructions: Instructions<Deps> | undefined,
): string | undefined {
  if (instructions === undefined) return '';
  if (typeof instructions === 'string') return instructions;
  if (typeof instructions === 'function' || !Array.isArray(instructions)) return undefined;
  const pieces = instructions as readonly unknown[];
  if (!pieces.every((piece) => typeof piece === 'string')) return undefined;
  return pieces.filter((piece) => piece !== '').join('\n\n');
}
