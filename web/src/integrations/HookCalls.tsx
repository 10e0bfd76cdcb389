import type { components } from '../api/v1.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';

type Call = components['schemas']['PostPublishHookCall'];

/** The hook's last calls, newest first: when, why, and what it answered. */
export function HookCalls({ calls }: { calls: readonly Call[] }) {
  if (calls.length === 0)
    return (
      <p>
        No calls yet: the hook is called after every published article, or now with "Send a test
        call".
      </p>
    );
  return (
    <TableBox label="Last calls">
      <table data-testid="hook-calls">
        <caption>Last calls</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Call</th>
            <th scope="col">Status</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={`${call.eventId}:${call.attempt}`}>
              <td>
                <Time at={call.at} />
              </td>
              <td>
                {call.kind === 'test'
                  ? 'test call'
                  : `article ${call.articleId ?? ''}${call.attempt > 1 ? `, attempt ${call.attempt}` : ''}`}
              </td>
              <td>{call.statusCode ?? 'no answer'}</td>
              <td className={call.ok ? 'ok' : 'error'}>
                {call.ok ? 'OK' : (call.error ?? 'failed')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
