import { describeActor, eventDetail, eventLabel, type HistoryEntry } from './history.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';

/** An article's history: when, what, who, and the step's detail; `onShowAt` adds "show the article as it was here". */
export function HistoryTable({
  entries,
  caption,
  onShowAt,
  shownAt,
}: {
  entries: readonly HistoryEntry[];
  caption: string;
  onShowAt?(entry: HistoryEntry): void;
  shownAt?: number | null;
}) {
  return (
    <TableBox label={caption}>
      <table className="history">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Actor</th>
            <th scope="col">Detail</th>
            {onShowAt && (
              <th scope="col">
                <span className="hidden">As it was</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.eventId} aria-current={shownAt === entry.revision ? 'true' : undefined}>
              <td>{entry.revision}</td>
              <td>
                <Time at={entry.at} absolute />
              </td>
              <td>{eventLabel(entry.type)}</td>
              <td>{describeActor(entry.actor)}</td>
              <td className="detail">{eventDetail(entry)}</td>
              {onShowAt && (
                <td>
                  <button
                    type="button"
                    onClick={() => onShowAt(entry)}
                    aria-label={`As it was here: step ${entry.revision} (${eventLabel(entry.type)})`}
                  >
                    As it was here
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
