import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import type { useBoardRefresh } from './useBoardRefresh.ts';

type Research = components['schemas']['Project']['research'];

/**
 * "Suggest topics" and the research run it starts: in progress until the run ends (topics.suggested),
 * then how many suggestions it brought, or why it failed.
 */
export function ResearchRun({
  projectId,
  research,
  canStart,
  refresh,
}: {
  projectId: string;
  research: Research;
  canStart: boolean;
  refresh: ReturnType<typeof useBoardRefresh>;
}) {
  const action = useAction();
  const running = research?.status === 'running';

  async function start() {
    const mark = refresh.begin();
    refresh.settled(
      mark,
      await action.run(() =>
        unwrap(api.POST('/projects/{id}/topics/suggest', { params: { path: { id: projectId } } })),
      ),
    );
  }

  return (
    <div className="research">
      {canStart && (
        <button type="button" onClick={() => void start()} disabled={running || action.busy}>
          Suggest topics
        </button>
      )}
      <p role="status" className="research-status" aria-busy={running}>
        {running &&
          'Researching topics for this site… new suggestions appear in the Suggested column when the run ends.'}
        {research?.status === 'done' &&
          `The last research run suggested ${research.topicIds.length} topic${research.topicIds.length === 1 ? '' : 's'}.`}
        {research?.status === 'failed' &&
          `The last research run failed: ${research.failureReason ?? 'no reason was given.'}`}
      </p>
      <ErrorNote error={action.error} />
    </div>
  );
}
