import { useCallback, useEffect, useState } from 'react';
import { request } from './api';

/** What {@link useApi} holds: the answer, the failure, and a way to fetch again. */
export interface ApiState<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
  /** Replaces the held answer (a live update). */
  readonly set: (data: T) => void;
}

/** GETs `path` (none when `null`) and re-fetches when it changes; aborts on unmount. */
export function useApi<T>(path: string | null): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    setLoading(true);
    request<T>(path, { signal: abort.signal }).then(
      (answer) => {
        setData(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (abort.signal.aborted) return;
        setError(failure instanceof Error ? failure.message : String(failure));
        setLoading(false);
      },
    );
    return () => {
      abort.abort();
    };
  }, [path, generation]);
  const reload = useCallback(() => {
    setGeneration((n) => n + 1);
  }, []);
  return { data, error, loading, reload, set: setData };
}
