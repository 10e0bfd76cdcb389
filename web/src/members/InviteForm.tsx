import type { FormEvent } from 'react';
import { app, type Invited, type Role } from '../api/appClient.ts';
import { FieldError } from '../ui/FieldError.tsx';
import { messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';

const FIELDS = ['email', 'name', 'role'] as const;

/** Invite by email and role: the answer is a one-time link (Inkstream sends no mail). Errors go on the field they name. */
export function InviteForm({ onInvited }: { onInvited(invited: Invited): void }) {
  const action = useAction();
  const failure = action.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    void action.run(async () => {
      onInvited(
        await app.inviteMember({
          email: String(data.get('email')).trim(),
          role: String(data.get('role')) as Role,
          ...(name ? { name } : {}),
        }),
      );
      form.reset();
    });
  }

  // A validation issue's own text is short and precise; a conflict's message explains what to do.
  const fieldError = (field: string) =>
    messageFor(failure, field) &&
    (failure?.error.code === 'validation_failed' ? messageFor(failure, field) : failure?.message);
  const general = failure && !FIELDS.some((field) => fieldError(field)) ? failure.message : null;
  const described = (field: string) =>
    fieldError(field) ? { 'aria-invalid': true, 'aria-describedby': `invite-${field}-error` } : {};
  return (
    <form onSubmit={submit} className="invite" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a member</h2>
      <label>
        Email <input name="email" type="email" required maxLength={254} {...described('email')} />
      </label>
      <FieldError id="invite-email-error" message={fieldError('email')} />
      <label>
        Name (optional) <input name="name" maxLength={100} {...described('name')} />
      </label>
      <FieldError id="invite-name-error" message={fieldError('name')} />
      <label>
        Role
        <select name="role" defaultValue="editor" {...described('role')}>
          <option value="viewer">viewer: reads everything, changes nothing</option>
          <option value="editor">editor: reads and writes content</option>
          <option value="owner">owner: also manages members and API keys</option>
        </select>
      </label>
      <FieldError id="invite-role-error" message={fieldError('role')} />
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      <button type="submit" disabled={action.busy}>
        Invite
      </button>
    </form>
  );
}
