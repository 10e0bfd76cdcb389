import { useState, type FormEvent } from 'react';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { ProjectUpdate, Settings } from './types.ts';

type Cadence = Settings['cadence'];
const DAYS: ReadonlyArray<[Cadence['days'][number], string]> = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];
const FIELDS = ['enabled', 'articlesPerWeek', 'days', 'time', 'timezone', 'minApprovedBacklog'].map(
  (field) => `settings.cadence.${field}`,
);

/** When Inkstream writes on its own: weekdays, a local time, a weekly count, and the backlog that starts topic research. */
export function CadenceForm({
  cadence,
  readOnly,
  save,
}: {
  cadence: Cadence;
  readOnly: boolean;
  save(update: ProjectUpdate): Promise<unknown>;
}) {
  const [draft, setDraft] = useState(cadence);
  const action = useAction();
  const set = (patch: Partial<Cadence>) => setDraft({ ...draft, ...patch });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(() => save({ settings: { cadence: draft } }));
  };
  const error = (field: string) => messageFor(action.error, `settings.cadence.${field}`);
  const general = formMessage(action.error, FIELDS);
  return (
    <form onSubmit={submit} aria-label="Cadence">
      <fieldset disabled={readOnly || action.busy}>
        <label className="tick">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => set({ enabled: event.target.checked })}
          />
          Write articles on a schedule
        </label>
        <div className="row">
          <label>
            Articles per week
            <input
              type="number"
              min={1}
              max={21}
              value={draft.articlesPerWeek}
              onChange={(event) => set({ articlesPerWeek: Number(event.target.value) })}
              aria-describedby="cadence-perweek-error"
            />
            <FieldError id="cadence-perweek-error" message={error('articlesPerWeek')} />
          </label>
          <label>
            Time of day
            <input
              type="time"
              value={draft.time}
              onChange={(event) => set({ time: event.target.value })}
              aria-describedby="cadence-time-error"
            />
            <FieldError id="cadence-time-error" message={error('time')} />
          </label>
          <label>
            Time zone
            <input
              value={draft.timezone}
              onChange={(event) => set({ timezone: event.target.value })}
              placeholder="Europe/Berlin"
              aria-describedby="cadence-timezone-error"
            />
            <FieldError id="cadence-timezone-error" message={error('timezone')} />
          </label>
          <label>
            Research topics when fewer approved topics than
            <input
              type="number"
              min={0}
              max={50}
              value={draft.minApprovedBacklog}
              onChange={(event) => set({ minApprovedBacklog: Number(event.target.value) })}
              aria-describedby="cadence-backlog-error"
            />
            <FieldError id="cadence-backlog-error" message={error('minApprovedBacklog')} />
          </label>
        </div>
        <fieldset className="days" aria-describedby="cadence-days-error">
          <legend>Days</legend>
          {DAYS.map(([day, name]) => (
            <label key={day} className="tick">
              <input
                type="checkbox"
                checked={draft.days.includes(day)}
                onChange={(event) =>
                  set({
                    days: event.target.checked
                      ? DAYS.map(([d]) => d).filter((d) => d === day || draft.days.includes(d))
                      : draft.days.filter((d) => d !== day),
                  })
                }
              />
              {name}
            </label>
          ))}
          <FieldError id="cadence-days-error" message={error('days')} />
        </fieldset>
        <button type="submit">Save cadence</button>
      </fieldset>
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
    </form>
  );
}
