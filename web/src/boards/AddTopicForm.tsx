import { useId, useState, type FormEvent, type ReactElement } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { asRequestFailed } from '../ui/useResource.ts';
import type { useBoardRefresh } from './useBoardRefresh.ts';

const FIELDS = ['title', 'keyword', 'brief'] as const;
type Field = (typeof FIELDS)[number];
type FieldProps = {
  id: string;
  name: Field;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
};

/**
 * Add a topic by hand (POST /projects/:id/topics): a title, and optionally a keyword and a brief.
 * It lands approved, as the API makes it. The server's refusal shows on the field it names, or
 * under the form when it names none; the form keeps what was typed until the topic is added.
 */
export function AddTopicForm({
  projectId,
  refresh,
}: {
  projectId: string;
  refresh: ReturnType<typeof useBoardRefresh>;
}) {
  const id = useId();
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const value = (field: Field) => String(data.get(field) ?? '');
    setBusy(true);
    setFailure(null);
    const mark = refresh.begin();
    try {
      await unwrap(
        api.POST('/projects/{id}/topics', {
          params: { path: { id: projectId } },
          body: {
            title: value('title'),
            ...(value('keyword') !== '' ? { keyword: value('keyword') } : {}),
            ...(value('brief') !== '' ? { brief: value('brief') } : {}),
          },
        }),
      );
      form.reset();
      refresh.settled(mark, true);
    } catch (error) {
      setFailure(asRequestFailed(error));
      refresh.settled(mark, false);
    } finally {
      setBusy(false);
    }
  }

  const problemOf = (field: Field) => failure?.fieldMessage(field);
  const unplaced = failure && !FIELDS.some((field) => problemOf(field)) ? failure.message : null;
  const field = (name: Field, label: string, input: (props: FieldProps) => ReactElement) => {
    const problem = problemOf(name);
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        {input({
          id: `${id}-${name}`,
          name,
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': problem ? `${id}-${name}-problem` : undefined,
        })}
        {problem && (
          <p id={`${id}-${name}-problem`} className="error" role="alert">
            {problem}
          </p>
        )}
      </div>
    );
  };

  return (
    <details className="add-topic">
      <summary>Add a topic by hand</summary>
      <form onSubmit={submit} aria-label="Add a topic">
        {field('title', 'Title', (props) => (
          <input {...props} type="text" required />
        ))}
        {field('keyword', 'Keyword (optional)', (props) => (
          <input {...props} type="text" />
        ))}
        {field('brief', 'Brief (optional)', (props) => (
          <textarea {...props} rows={3} />
        ))}
        {unplaced && (
          <p className="error" role="alert">
            {unplaced}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Add the topic
        </button>
      </form>
    </details>
  );
}
