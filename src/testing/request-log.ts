import type { ModelRequest } from '../core/contract/request';
import { cloneRequest } from './deep-copy';

/**
 * The request recording shared by the test doubles: a deep copy is taken when a request arrives
 * and a fresh deep copy is handed out on every read, so neither the engine nor the test can alter
 * what was recorded.
 */
export class RequestLog {
  private readonly recorded: ModelRequest[] = [];

  /** Records a deep copy of `request`. */
  record(request: ModelRequest): void {
    this.recorded.push(cloneRequest(request));
  }

  /** Copies of every recorded request, oldest first. */
  get requests(): ModelRequest[] {
    return this.recorded.map(cloneRequest);
  }

  /** A copy of the latest recorded request, or `undefined` before the first call. */
  get last(): ModelRequest | undefined {
    const last = this.recorded.at(-1);
    return last === undefined ? undefined : cloneRequest(last);
  }

  /** How many requests were recorded. */
  get count(): number {
    return this.recorded.length;
  }
}

/**
 * The base of the recording test doubles: a name and the request log, with read accessors that
 * hand out copies.
 */
export abstract class RecordingModel {
  /** The model's name. */
  readonly name: string;
  /** @internal */
  protected readonly log = new RequestLog();

  protected constructor(name: string) {
    this.name = name;
  }

  /** Deep copies of every request received, oldest first; mutating them changes nothing. */
  get requests(): ModelRequest[] {
    return this.log.requests;
  }

  /** A deep copy of the latest request, or `undefined` before the first call. */
  get lastRequest(): ModelRequest | undefined {
    return this.log.last;
  }

  /** How many calls the model received. */
  get calls(): number {
    return this.log.count;
  }
}
