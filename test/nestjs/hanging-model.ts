/** A streaming model that sends one fragment, then waits until its call is aborted. */
import type {
  DeltaHandler,
  GenerateOptions,
  ModelRequest,
  ModelResponse,
  StreamingModel,
} from 'golem';
import { cancellationError } from '../../src/core/errors/cancellation';

export class HangingModel implements StreamingModel {
  readonly name = 'hanging';
  /** Settles with the abort reason once the model's signal is aborted. */
  readonly aborted: Promise<unknown>;
  private onAbort: (reason: unknown) => void = () => undefined;

  constructor(private readonly first = 'first fragment') {
    this.aborted = new Promise((resolve) => {
      this.onAbort = resolve;
    });
  }

  generate(): Promise<ModelResponse> {
    return Promise.reject(new Error('HangingModel only streams'));
  }

  async stream(
    _request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const { signal } = options;
    if (signal === undefined) throw new Error('HangingModel needs a signal');
    await onDelta({ content: this.first });
    return new Promise((_resolve, reject) => {
      const abort = (): void => {
        this.onAbort(signal.reason);
        reject(cancellationError(signal));
      };
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
  }
}
