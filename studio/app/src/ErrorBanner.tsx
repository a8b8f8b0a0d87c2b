import { useEffect, useState } from 'react';
import { clearProblem, currentProblem, onProblem } from './error-bus';

/** The app-wide error banner: the latest API failure, dismissable. */
export function ErrorBanner() {
  const [problem, setProblem] = useState(currentProblem);
  useEffect(() => onProblem(setProblem), []);
  if (problem === undefined) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <span>{problem.message}</span>
      <button type="button" className="link" onClick={clearProblem} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
