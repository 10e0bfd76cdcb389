import { articleStateInSentence } from '../articleStates.ts';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { allows, type Article } from './articleApi.ts';

/**
 * An instruction for the AI revision (POST /articles/:id/revise), its progress while it is pending,
 * and the summary of what the last revision changed (`article.revised`), or why it failed.
 */
export function ReviseBox({
  article,
  canAct,
  onQueued,
}: {
  article: Article;
  canAct: boolean;
  onQueued(): void;
}) {
  const [instruction, setInstruction] = useState('');
  const action = useAction();
  const allowed = canAct && allows('revise', article.status);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(
        api.POST('/articles/{id}/revise', {
          params: { path: { id: article.id } },
          body: { instruction },
        }),
      );
      setInstruction('');
      onQueued();
    });
  }

  const fieldError = messageFor(action.error, 'instruction');
  const general = formMessage(action.error, ['instruction']);
  return (
    <section aria-labelledby="revise-heading">
      <h2 id="revise-heading">Revise</h2>
      <form onSubmit={submit}>
        <label>
          Revision instruction
          <textarea
            name="instruction"
            value={instruction}
            onChange={(event) => setInstruction(event.target.value)}
            rows={3}
            maxLength={4000}
            disabled={!allowed}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby="instruction-error"
          />
          <FieldError id="instruction-error" message={fieldError} />
        </label>
        <button type="submit" disabled={!allowed || action.busy}>
          Ask for a revision
        </button>
      </form>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      {!allows('revise', article.status) && (
        <p className="note">
          A draft or an open pull request can be revised; this article is{' '}
          {articleStateInSentence(article.status)}.
        </p>
      )}
      <div role="status" aria-live="polite">
        {article.pendingRevisions > 0 ? (
          <p className="progress">
            Revising… {article.pendingRevisions} revision{article.pendingRevisions === 1 ? '' : 's'}{' '}
            in progress.
          </p>
        ) : (
          article.lastRevisionSummary && (
            <p>
              Last revision (version {article.version}): {article.lastRevisionSummary}
            </p>
          )
        )}
        {article.revisionFailure && article.pendingRevisions === 0 && (
          <p className="error">
            The last revision was not applied: {article.revisionFailure.reason}
          </p>
        )}
      </div>
    </section>
  );
}
