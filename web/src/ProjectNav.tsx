import type { AppViewerQuery } from '@parley/client';
import { useMessages } from './i18n.ts';

type Project = AppViewerQuery['viewer']['projects'][number];

/** A project's page shown instead of the thread: its settings (admins) or its usage (anyone in it). */
export interface ProjectView {
  readonly page: 'settings' | 'usage';
  readonly projectId: string;
}

/**
 * The entries to the projects' pages under the agents: each project's usage for everyone in it
 * (an admin's reads the whole project, a member's only their own), and its settings for its admins.
 */
export function ProjectNav({ projects, shown, onShow }: { projects: readonly Project[]; shown: ProjectView | null; onShow: (view: ProjectView) => void }) {
  const t = useMessages();
  const administered = projects.filter((project) => project.viewerRole === 'ADMIN');
  const current = (page: ProjectView['page'], projectId: string) => (shown?.page === page && shown.projectId === projectId ? 'page' : undefined);
  return (
    <>
      {projects.length > 0 && (
        <section className="project-usage">
          <h2>{t.usage}</h2>
          <ul>
            {projects.map((project) => (
              <li key={project.id}>
                <button type="button" aria-current={current('usage', project.id)} onClick={() => onShow({ page: 'usage', projectId: project.id })}>
                  {project.viewerRole === 'ADMIN' ? t.usageOf(project.name) : t.yourUsageIn(project.name)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {administered.length > 0 && (
        <section className="project-settings">
          <h2>{t.projectSettings}</h2>
          <ul>
            {administered.map((project) => (
              <li key={project.id}>
                <button type="button" aria-current={current('settings', project.id)} onClick={() => onShow({ page: 'settings', projectId: project.id })}>
                  {t.toolServersOf(project.name)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
