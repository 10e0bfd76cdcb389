import { absoluteTime, formatTime } from './formatTime.ts';

/**
 * A time as a `<time dateTime>` element: relative within a day of now, otherwise the date and
 * time in the reader's locale (`absolute` always, `dateOnly` the day); the full time is its tooltip.
 * `at` null or missing shows `empty`.
 */
export function Time({
  at,
  absolute,
  dateOnly,
  empty = 'never',
}: {
  at: string | null | undefined;
  absolute?: boolean;
  dateOnly?: boolean;
  empty?: string;
}) {
  if (!at) return <>{empty}</>;
  const text = absolute ? absoluteTime(at) : formatTime(at, Date.now(), { dateOnly });
  return (
    <time dateTime={at} title={absoluteTime(at)}>
      {text}
    </time>
  );
}
