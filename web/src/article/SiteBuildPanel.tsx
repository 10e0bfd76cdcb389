import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { httpUrl } from '../ui/httpUrl.ts';
import { Time } from '../ui/Time.tsx';
import { useAction } from '../ui/useAction.ts';

type SiteBuild = NonNullable<components['schemas']['SiteBuild']>;
type BuildCorrection = NonNullable<components['schemas']['BuildCorrection']>;

const CORRECTION_LABEL: Record<BuildCorrection['state'], string> = {
  proposed: 'A corrected file is proposed',
  applying: 'The corrected file is being committed',
  applied: 'The corrected file was committed',
};

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
export function SiteBuildPanel({
  build,
  status,
  correction = null,
  articleId,
  canAct = false,
  onDone,
}: {
  build: SiteBuild | null;
  status: string;
  correction?: BuildCorrection | null;
  articleId?: string;
  canAct?: boolean;
  onDone?(): void;
}) {
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
      {correction && articleId && (
        <CorrectionLine
          correction={correction}
          articleId={articleId}
          canApply={canAct && status === 'pr_open'}
          onDone={onDone}
        />
      )}
    </section>
  );
}

/** The correction of a file the build rejected: what happened to it and, while proposed, a way to commit it. */
function CorrectionLine({
  correction,
  articleId,
  canApply,
  onDone,
}: {
  correction: BuildCorrection;
  articleId: string;
  canApply: boolean;
  onDone?(): void;
}) {
  const action = useAction();
  const apply = () =>
    action.run(async () => {
      await unwrap(
        api.POST('/articles/{id}/build/correction/apply', {
          params: { path: { id: articleId } },
        }),
      );
      onDone?.();
    });
  return (
    <div className="build-correction" aria-label="Build correction">
      <p>
        {CORRECTION_LABEL[correction.state]} for <code>{correction.path}</code>
        {correction.commitSha && (
          <>
            {' '}
            in commit <code>{correction.commitSha.slice(0, 7)}</code>
          </>
        )}{' '}
        (<Time at={correction.at} />
        ): {correction.reason}
      </p>
      {correction.state === 'proposed' && canApply && (
        <button type="button" disabled={action.busy} onClick={() => void apply()}>
          Apply the correction
        </button>
      )}
      <ErrorNote error={action.error} />
    </div>
  );
}
