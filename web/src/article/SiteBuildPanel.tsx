import type { components } from '../api/v1.ts';
import { httpUrl } from '../ui/httpUrl.ts';

type SiteBuild = NonNullable<components['schemas']['SiteBuild']>;

export const BUILD_LABEL: Record<SiteBuild['state'], string> = {
  pending: 'running',
  success: 'passed',
  failure: 'failed',
  none: 'no checks reported yet',
  unknown: 'unknown',
};
const CHECK_LABEL = {
  pending: 'running',
  success: 'passed',
  failure: 'failed',
  neutral: 'neutral',
};

/**
 * The site's own build of the pull request's head commit: its state, the preview, each check, and
 * for a failed one the annotations or summary its CI gave. Every text here was written by the
 * site's CI: it is shown as text, and only https addresses become links.
 */
export function SiteBuildPanel({ build, status }: { build: SiteBuild | null; status: string }) {
  if (status !== 'pr_open' && !build) return null;
  const preview = build ? httpUrl(build.previewUrl) : null;
  return (
    <section aria-labelledby="site-build-heading" className="site-build">
      <h2 id="site-build-heading">Site build</h2>
      {!build ? (
        <p>Not read yet: Inkstream reads the site's checks on the pull request's head commit.</p>
      ) : (
        <>
          <p>
            <strong className={build.state === 'failure' ? 'error' : undefined}>
              {BUILD_LABEL[build.state]}
            </strong>{' '}
            on commit <code>{build.headSha.slice(0, 7)}</code>
            {preview && (
              <>
                {' · '}
                <a href={preview} rel="noopener noreferrer" target="_blank">
                  Preview
                </a>
              </>
            )}
          </p>
          {build.reason && (
            <p className={build.state === 'unknown' ? undefined : 'error'}>{build.reason}</p>
          )}
          {build.checks.length > 0 && (
            <ul aria-label="Checks">
              {build.checks.map((check) => {
                const url = httpUrl(check.url);
                return (
                  <li key={check.name}>
                    {url ? (
                      <a href={url} rel="noopener noreferrer" target="_blank">
                        {check.name}
                      </a>
                    ) : (
                      check.name
                    )}
                    : {CHECK_LABEL[check.state]}
                    {check.detail && <span className="error"> — {check.detail}</span>}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
