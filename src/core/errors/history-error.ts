import { GolemError, brandGuard } from '../kit/error-base';

/**
 * Stored history (or history about to be stored) does not have the durable JSON shape of spec
 * §1: not an array, a message that is not an object, an unknown role, a field of the wrong
 * type, invalid base64, or tool-call `args` that are not valid JSON.
 *
 * The message names the culprit, e.g. `history message 3: toolCalls[1].id must be a string`.
 */
export class HistoryFormatError extends GolemError {
  /** Index of the offending message in the history, or `undefined` when the whole document is at fault. */
  readonly index: number | undefined;
  /** Path of the offending field inside the message, e.g. `toolCalls[1].id`; `''` for the message (or document) itself. */
  readonly field: string;
  /** What is wrong, without the location, e.g. `must be a string`. */
  readonly problem: string;

  constructor(
    index: number | undefined,
    field: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super('HistoryFormatError', historyProblemText(index, field, problem), options);
    this.index = index;
    this.field = field;
    this.problem = problem;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<HistoryFormatError>('HistoryFormatError');
}

function historyProblemText(index: number | undefined, field: string, problem: string): string {
  const subject = index === undefined ? 'history' : `history message ${index}`;
  return field === '' ? `${subject} ${problem}` : `${subject}: ${field} ${problem}`;
}
