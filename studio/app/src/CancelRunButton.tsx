import { useState } from 'react';
import type { CancelBody, StartedRun } from '../../../src/studio/api-types';
import { request } from './api';

/**
 * Cancels a queued or running run on the studio's queue, after a confirm: a queued run is
 * withdrawn, a running one aborted by its worker (the stream then shows it cancelled).
 */
export function CancelRunButton({ runId }: { runId: string }) {
  const [cancelling, setCancelling] = useState(false);
  const cancel = (): void => {
    if (!window.confirm(`Cancel run ${runId}? A running run is aborted by its worker.`)) return;
    setCancelling(true);
    const body: CancelBody = { reason: 'cancelled in Golem Studio' };
    request<StartedRun>(`api/runs/${encodeURIComponent(runId)}/cancel`, {
      method: 'POST',
      body,
    }).then(
      () => {
        setCancelling(false);
      },
      () => {
        setCancelling(false);
      },
    );
  };
  return (
    <button
      type="button"
      className="danger"
      data-testid="cancel-run"
      disabled={cancelling}
      onClick={cancel}
    >
      {cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  );
}
