import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { app, RequestFailed, type KeyView, type Me } from '../api/appClient.ts';
import { api } from '../api/v1Client.ts';
import { NewSecret } from '../ui/NewSecret.tsx';
import { Time } from '../ui/Time.tsx';

/** The API keys area (owners): list, create, rotate, revoke. A new key is shown once. */
export function KeysPage({ me }: { me: Me }) {
  const [keys, setKeys] = useState<KeyView[]>([]);
  const [projects, setProjects] = useState<number | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const owner = me.member.role === 'owner';

  const refresh = useCallback(async () => {
    if (owner) setKeys((await app.keys()).keys);
  }, [owner]);
  useEffect(() => { void refresh(); }, [refresh]);
  useEffect(() => {
    void api.GET('/projects', { params: { query: { limit: 200 } } }).then(({ data }) => setProjects(data?.projects.length ?? null));
  }, []);

  async function attempt(action: () => Promise<void>) {
    setError(null);
    try { await action(); } catch (failure) { setError(failure instanceof RequestFailed ? failure.message : 'Could not reach Inkstream.'); }
  }

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name')).trim();
    await attempt(async () => {
      const created = await app.createKey(name);
      setSecret({ label: `New key "${name}"`, value: created.secret });
      form.reset();
      await refresh();
    });
  }

  const rotate = (key: KeyView) => attempt(async () => {
    const rotated = await app.rotateKey(key.id);
    setSecret({ label: `Rotated "${key.name}": the old key no longer works`, value: rotated.secret });
    await refresh();
  });
  const revoke = (key: KeyView) => attempt(async () => {
    if (!window.confirm(`Revoke the key "${key.name}" (${key.prefix}…)? Anything using it gets 401 from now on.`)) return;
    await app.revokeKey(key.id);
    await refresh();
  });

  const active = keys.filter((key) => !key.revokedAt);
  return (
    <main>
      <h1>API keys</h1>
      <p>Account {me.account.name} on the {me.account.plan} plan{projects === null ? '' : `, ${projects} project${projects === 1 ? '' : 's'}`}.</p>
      {!owner && <p>Only owners of the account manage API keys.</p>}
      {error && <p role="alert" className="error">{error}</p>}
      {secret && <NewSecret label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      {owner && (
        <>
          <form onSubmit={create} className="inline">
            <label>Name of the new key <input name="name" required maxLength={64} placeholder="build server" /></label>
            <button type="submit">Create key</button>
          </form>
          <table>
            <caption>Active keys</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span className="hidden">Actions</span></th></tr></thead>
            <tbody>
              {active.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td><code>{key.prefix}…</code></td>
                  <td>{key.createdBy}</td>
                  <td><Time at={key.createdAt} /></td>
                  <td><Time at={key.lastUsedAt} /></td>
                  <td>
                    <button type="button" onClick={() => void rotate(key)} aria-label={`Rotate ${key.name}`}>Rotate</button>
                    <button type="button" onClick={() => void revoke(key)} aria-label={`Revoke ${key.name}`}>Revoke</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </main>
  );
}
