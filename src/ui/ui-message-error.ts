import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * The UI messages a client sent cannot be a run's history: not an array of messages, an unknown
 * part type, a tool part in a state that cannot be history, nothing to answer, or decisions for a
 * stored run this route cannot see. `path` names the culprit (`messages[3].parts[1]`); `status`
 * is the HTTP status a server answers it with (400; 404 for a paused run that is not found, 409
 * for one that is no longer waiting).
 */
export class UIMessageError extends GolemError {
  /** Where in the input the problem is, e.g. `messages[3].parts[1]`; `messages` for the whole list. */
  readonly path: string;
  /** The HTTP status of the refusal: 400, or 404 / 409 for a stored run that cannot be resumed. */
  readonly status: number;

  constructor(path: string, problem: string, status = 400) {
    super('UIMessageError', `${path}: ${problem}`);
    this.path = path;
    this.status = status;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UIMessageError>('UIMessageError');
}
