import { lazy, Suspense } from 'react';
import { ComparePage } from './ComparePage';
import { ErrorBanner } from './ErrorBanner';
import { EvalReportPage } from './EvalReportPage';
import { EvalsPage } from './EvalsPage';
import { InfoContext } from './info-context';
import { Nav } from './Nav';
import { useRoute, type Route } from './router';
import { RunPage } from './RunPage';
import { RunsPage } from './RunsPage';
import { useApi } from './use-api';
import type { StudioInfo } from '../../../src/studio/api-types';

// The playground carries the AI SDK (most of the bundle): it loads when first opened.
const PlaygroundPage = lazy(() =>
  import('./PlaygroundPage').then((module) => ({ default: module.PlaygroundPage })),
);

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'runs':
      return <RunsPage />;
    case 'run':
      return <RunPage key={route.id} id={route.id} />;
    case 'compare':
      return (
        <ComparePage key={`${route.left}/${route.right}`} left={route.left} right={route.right} />
      );
    case 'playground':
      return (
        <Suspense fallback={<p className="empty">Loading…</p>}>
          <PlaygroundPage />
        </Suspense>
      );
    case 'evals':
      return <EvalsPage />;
    case 'eval':
      return <EvalReportPage key={route.file} file={route.file} />;
    case 'not-found':
      return (
        <section className="page">
          <h1>Not found</h1>
          <p className="muted">
            Nothing lives at <code>{route.hash}</code>. <a href="#/runs">Back to runs</a>.
          </p>
        </section>
      );
  }
}

/** The studio app: navigation, the error banner, and the page the hash names. */
export function App() {
  const route = useRoute();
  const info = useApi<StudioInfo>('api/info');
  return (
    <InfoContext.Provider value={info.data}>
      <div className="shell">
        <Nav route={route} />
        <main className="main">
          <ErrorBanner />
          <Page route={route} />
        </main>
      </div>
    </InfoContext.Provider>
  );
}
