import { useState, type FormEvent } from 'react';
import { app, type KeyView, type Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { NewSecret } from '../ui/NewSecret.tsx';
import { Time } from '../ui/Time.tsx';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { TableBox } from '../ui/TableBox.tsx';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The API keys area (owners): list, create, rotate, revoke. A new key is shown once. */
export function KeysPage({ me }: { me: Me }) {
  const owner = me.member.role === 'owner';
  const keys = useResource(async () => (owner ? (await app.keys()).keys : []), `keys:${owner}`);
  // The account's project count is the plan's own figure: no project list to page through.
  const plan = useResource(() => unwrap(api.GET('/plan')), 'plan');
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const action = useAction();

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name')).trim();
    void action.run(async () => {
      const created = await app.createKey(name);
      setSecret({ label: `New key "${name}"`, value: created.secret });
      form.reset();
      await keys.reload();
    });
  }

  const rotate = (key: KeyView) =>
    action.run(async () => {
      const rotated = await app.rotateKey(key.id);
      setSecret({
        label: `Rotated "${key.name}": the old key no longer works`,
        value: rotated.secret,
      });
      await keys.reload();
    });
  const revoke = (key: KeyView) =>
    action.run(async () => {
      if (
        !window.confirm(
          `Revoke the key "${key.name}" (${key.prefix}…)? Anything using it gets 401 from now on.`,
        )
      )
        return;
      await app.revokeKey(key.id);
      await keys.reload();
    });

  const active = (keys.data ?? []).filter((key) => !key.revokedAt);
  const projects = plan.data?.plan.projects.used;
  const nameError = messageFor(action.error, 'name');
  const general = formMessage(action.error, ['name']);
  return (
    <main>
      <h1>API keys</h1>
      <p>
        Account {me.account.name} on the {me.account.plan} plan
        {projects === undefined ? '' : `, ${plural(projects, 'project')}`}.
      </p>
      {!owner && <p>Only owners of the account manage API keys.</p>}
      <ErrorNote error={keys.error} />
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      {secret && (
        <NewSecret label={secret.label} value={secret.value} onDone={() => setSecret(null)} />
      )}
      {owner && (
        <>
          <form onSubmit={create} className="inline">
            <label>
              Name of the new key{' '}
              <input
                name="name"
                required
                maxLength={64}
                placeholder="build server"
                aria-invalid={nameError ? true : undefined}
                aria-describedby="key-name-error"
              />
              <FieldError id="key-name-error" message={nameError} />
            </label>
            <button type="submit" disabled={action.busy}>
              Create key
            </button>
          </form>
          <TableBox label="Active keys">
            <table>
              <caption>Active keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {active.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td>{key.createdBy}</td>
                    <td>
                      <Time at={key.createdAt} />
                    </td>
                    <td>
                      <Time at={key.lastUsedAt} />
                    </td>
                    <td>
                      <button
                        type="button"
                        onClick={() => void rotate(key)}
                        aria-label={`Rotate ${key.name}`}
                      >
                        Rotate
                      </button>
                      <button
                        type="button"
                        onClick={() => void revoke(key)}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        </>
      )}
    </main>
  );
}
