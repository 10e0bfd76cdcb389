import { useId, useState, type FormEvent } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { localInputToUtc, timeZone, utcToLocalInput } from './localTime.ts';

/**
 * Schedule a topic: a date and time in the member's time zone, sent as UTC. The API's refusal (a
 * time in the past, say) is shown on the field it names.
 */
export function ScheduleForm({
  title,
  current,
  onSchedule,
  onCancel,
}: {
  title: string;
  current: string | null;
  onSchedule(utc: string): Promise<RequestFailed | null>;
  onCancel(): void;
}) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const utc = localInputToUtc(
      String(new FormData(event.currentTarget).get('scheduledFor') ?? ''),
    );
    if (!utc) {
      setProblem('Pick a date and a time.');
      return;
    }
    setBusy(true);
    const failed = await onSchedule(utc);
    setBusy(false);
    setProblem(failed ? (failed.fieldMessage('scheduledFor') ?? failed.message) : null);
  }

  return (
    <form className="schedule-form" onSubmit={submit} aria-label={`Schedule ${title}`}>
      <label htmlFor={id}>Write on ({timeZone()})</label>
      <input
        id={id}
        name="scheduledFor"
        type="datetime-local"
        required
        defaultValue={current ? utcToLocalInput(current) : undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      {problem && (
        <p id={`${id}-problem`} className="error" role="alert">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" disabled={busy}>
          Schedule
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
