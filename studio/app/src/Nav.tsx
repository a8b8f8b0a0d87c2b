import type { Route } from './router';
import { useInfo } from './info-context';

const LINKS = [
  { id: 'runs', label: 'Runs', hash: '#/runs', pages: ['runs', 'run', 'compare'] },
  { id: 'playground', label: 'Playground', hash: '#/playground', pages: ['playground'] },
  { id: 'evals', label: 'Evals', hash: '#/evals', pages: ['evals', 'eval'] },
] as const;

/** The left navigation: pages, and what the studio is scoped to. */
export function Nav({ route }: { route: Route }) {
  const info = useInfo();
  return (
    <nav className="nav">
      <div className="brand">
        <span className="logo" aria-hidden="true">
          ◆
        </span>
        golem <span className="muted">studio</span>
      </div>
      <ul>
        {LINKS.map((link) => {
          const active = (link.pages as readonly string[]).includes(route.page);
          return (
            <li key={link.id}>
              <a
                href={link.hash}
                className={active ? 'active' : undefined}
                aria-current={active ? 'page' : undefined}
                data-testid={`nav-${link.id}`}
              >
                {link.label}
              </a>
            </li>
          );
        })}
      </ul>
      <div className="nav-foot muted">
        {info?.owner !== undefined && (
          <div>
            owner <code>{info.owner}</code>
          </div>
        )}
        {info !== undefined && (
          <div>
            {info.agents.length} agent{info.agents.length === 1 ? '' : 's'} · v{info.version}
          </div>
        )}
      </div>
    </nav>
  );
}
