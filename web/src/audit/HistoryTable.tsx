import { describeActor, eventDetail, eventLabel, type HistoryEntry } from './history.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';
import { app } from '../api/appClient.ts';
import { useResource } from '../ui/useResource.ts';

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
  // Members by name, not id: every role may read the account's members.
  const members = useResource(async () => {
    const { members: list } = await app.members();
    return new Map(list.map((member) => [member.id, member.name ?? member.email ?? member.id]));
  }, 'members');
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
              <td>{describeActor(entry.actor, members.data)}</td>
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
