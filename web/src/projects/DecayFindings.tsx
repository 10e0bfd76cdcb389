import { api, unwrap } from '../api/v1Client.ts';
import { pathTo } from '../navigation.ts';
import { DecaySignals, DecayVerdict } from '../article/DecayEvidence.tsx';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { useResource } from '../ui/useResource.ts';

/** The project's decaying articles, worst first, and the share of refreshes that helped. */
export function DecayFindings({ projectId }: { projectId: string }) {
  const loaded = useResource(
    () =>
      unwrap(
        api.GET('/projects/{id}/decay', {
          params: { path: { id: projectId }, query: { limit: 20 } },
        }),
      ),
    projectId,
  );
  const data = loaded.data;
  if (!data && !loaded.error) return null;
  const decaying = data?.findings.filter((finding) => finding.verdict === 'decaying') ?? [];
  const { better, unchanged, worse, waitingForData, helpedShare } = data?.refreshes ?? {};
  return (
    <section aria-labelledby="decay-heading">
      <h2 id="decay-heading">Decay</h2>
      <ErrorNote error={loaded.error} />
      {data && data.assessedAt === null && (
        <p>Not judged yet: connect Search Console and the daily sync judges published articles.</p>
      )}
      {data && data.assessedAt !== null && (
        <>
          {decaying.length === 0 ? (
            <p>No article shows decay.</p>
          ) : (
            <table>
              <caption>Decaying articles, worst first</caption>
              <thead>
                <tr>
                  <th scope="col">Article</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">Evidence</th>
                </tr>
              </thead>
              <tbody>
                {decaying.map((finding) => (
                  <tr key={finding.articleId}>
                    <td>
                      <Link
                        to={pathTo('/projects/:projectId/articles/:articleId', {
                          projectId,
                          articleId: finding.articleId,
                        })}
                      >
                        {finding.title}
                      </Link>
                    </td>
                    <td>
                      <DecayVerdict finding={finding} />
                    </td>
                    <td>
                      <DecaySignals finding={finding} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p>
            Refreshes measured: {better} better, {unchanged} unchanged, {worse} worse
            {helpedShare !== null && helpedShare !== undefined
              ? ` (${Math.round(helpedShare * 100)}% helped)`
              : ''}
            ; {waitingForData} waiting for data.
          </p>
        </>
      )}
    </section>
  );
}
