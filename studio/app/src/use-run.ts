import type { RunDetail } from '../../../src/studio/api-types';
import { useApi, type ApiState } from './use-api';
import { useEventStream } from './use-event-stream';

/** A run's detail, fetched once and then kept live by `/api/runs/:id/stream`. */
export function useRun(id: string): ApiState<RunDetail> {
  const path = `api/runs/${encodeURIComponent(id)}`;
  const state = useApi<RunDetail>(path);
  const { set } = state;
  useEventStream(`${path}/stream`, 'run', (detail) => {
    if (typeof detail === 'object' && detail !== null && 'summary' in detail)
      set(detail as RunDetail);
  });
  return state;
}
