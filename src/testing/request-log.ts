import type { ModelRequest } from '../model/request';
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
