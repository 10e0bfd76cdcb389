import type { EventType, EventTypeInfo } from './types.ts';

/**
 * Which event types an endpoint receives: "every type" (null, which includes types added later)
 * or the ones ticked. `value` null means every type.
 */
export function EventPicker({
  catalogue,
  value,
  onChange,
  disabled,
  error,
}: {
  catalogue: readonly EventTypeInfo[];
  value: EventType[] | null;
  onChange(next: EventType[] | null): void;
  disabled?: boolean;
  error?: string;
}) {
  const subscribable = catalogue
    .filter((entry) => entry.subscribable)
    .map((entry) => entry.type as EventType);
  const toggle = (type: EventType, on: boolean) => {
    const current = value ?? [];
    onChange(on ? [...current, type] : current.filter((kept) => kept !== type));
  };
  return (
    <fieldset
      className="event-picker"
      disabled={disabled}
      aria-describedby={error ? 'event-picker-error' : undefined}
    >
      <legend>Events</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={value === null}
          onChange={(event) => onChange(event.target.checked ? null : [])}
        />
        Every event type (including types added later)
      </label>
      {value !== null &&
        subscribable.map((type) => (
          <label className="check" key={type}>
            <input
              type="checkbox"
              checked={value.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
            <code>{type}</code>
          </label>
        ))}
      {error && (
        <p id="event-picker-error" className="error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
