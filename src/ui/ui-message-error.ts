import { GolemError, hasKind } from '../model/error-base';

/**
 * The UI messages a client sent cannot be a run's history: not an array of messages, an unknown
 * part type, a tool part in a state that cannot be history, or nothing to answer. `path` names
 * the culprit (`messages[3].parts[1]`). A server answers it with HTTP 400.
 */
export class UIMessageError extends GolemError {
  /** Where in the input the problem is, e.g. `messages[3].parts[1]`; `messages` for the whole list. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super('UIMessageError', `${path}: ${problem}`);
    this.path = path;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is UIMessageError {
    return hasKind(value, 'UIMessageError');
  }
}
