import type { FormEvent } from 'react';
import { app, refreshMe, type MemberView, type Role } from '../api/appClient.ts';
import { useAction } from '../ui/useAction.ts';
import { Time } from '../ui/Time.tsx';

const ROLES: readonly Role[] = ['owner', 'editor', 'viewer'];

/** One member; an owner changes the role or removes them (after a confirmation that says what is erased). */
export function MemberRow({
  member,
  manage,
  isMe,
  onChanged,
}: {
  member: MemberView;
  manage: boolean;
  isMe: boolean;
  onChanged(): Promise<void>;
}) {
  const action = useAction();
  const failure = action.error;
  const label = member.name ?? member.email ?? 'the first owner';

  const attempt = (change: () => Promise<unknown>) =>
    action.run(async () => {
      await change();
      await onChanged();
      if (isMe) await refreshMe(); // an owner who steps down loses the owner's controls now, not at the next reload
    });
  const changeRole = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const role = String(new FormData(event.currentTarget).get('role')) as Role;
    void attempt(() => app.changeRole(member.id, role));
  };
  const remove = () => {
    const erased = `${label} loses access at once. Their email, name, password and sessions are erased from Inkstream; the history keeps only an anonymous member id beside what they did.`;
    if (window.confirm(`Remove ${label} from the account? ${erased}`))
      void attempt(() => app.removeMember(member.id));
  };

  const errorId = `member-${member.id}-error`;
  return (
    <tr>
      <td>
        {member.name ?? '—'}
        {isMe && ' (you)'}
      </td>
      <td>{member.email ?? '—'}</td>
      <td>
        {manage ? (
          <form className="inline" onSubmit={changeRole}>
            <select
              name="role"
              defaultValue={member.role}
              aria-label={`Role of ${label}`}
              aria-describedby={failure ? errorId : undefined}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
            <button type="submit" aria-label={`Save the role of ${label}`}>
              Save
            </button>
          </form>
        ) : (
          member.role
        )}
        {failure && (
          <p id={errorId} className="error" role="alert">
            {failure.message}
          </p>
        )}
      </td>
      <td>
        {member.status === 'active' ? (
          <>
            joined <Time at={member.joinedAt} dateOnly empty="" />
          </>
        ) : (
          <>
            invited <Time at={member.invitedAt} dateOnly empty="" />, not joined yet
          </>
        )}
      </td>
      {manage && (
        <td>
          <button type="button" onClick={remove} aria-label={`Remove ${label}`}>
            Remove
          </button>
        </td>
      )}
    </tr>
  );
}
