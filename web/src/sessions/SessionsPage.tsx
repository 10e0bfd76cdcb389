import { app, signedOutHere, type SessionView } from '../api/appClient.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { deviceOf } from './device.ts';
import { Time } from '../ui/Time.tsx';
import { absoluteTime } from '../ui/formatTime.ts';

/** Your sessions: where you are signed in; revoking one signs that browser out (this one: you). */
export function SessionsPage() {
  const { data, error, reload } = useResource(() => app.sessions(), 'sessions');
  const action = useAction();

  async function revoke(session: SessionView) {
    const where = session.current
      ? 'this browser (you will be signed out)'
      : deviceOf(session.userAgent);
    if (!window.confirm(`Revoke the session in ${where}?`)) return;
    await action.run(async () => {
      await app.revokeSession(session.id);
      if (session.current) signedOutHere();
      else await reload();
    });
  }

  return (
    <main>
      <h1>Your sessions</h1>
      <p>
        Where you are signed in. A session ends after 12 hours without use, and 7 days after signing
        in. Revoking one signs that browser out at its next request.
      </p>
      <ErrorNote error={error ?? action.error} />
      {data && (
        <table className="stack">
          <caption>Signed-in sessions</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.sessions.map((session) => (
              <tr key={session.id} aria-current={session.current ? 'true' : undefined}>
                <td>
                  <span title={session.userAgent}>{deviceOf(session.userAgent)}</span>
                  {session.current && <strong className="badge"> this session</strong>}
                </td>
                <td>
                  <Time at={session.createdAt} />
                </td>
                <td>
                  <Time at={session.lastSeenAt} />
                </td>
                <td>
                  <button
                    type="button"
                    onClick={() => void revoke(session)}
                    aria-label={
                      session.current
                        ? 'Sign out here: revoke this session'
                        : `Revoke the session in ${deviceOf(session.userAgent)} signed in ${absoluteTime(session.createdAt)}`
                    }
                  >
                    {session.current ? 'Sign out here' : 'Revoke'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
