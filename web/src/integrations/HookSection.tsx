import { useState, type FormEvent } from 'react';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { NewSecret } from '../ui/NewSecret.tsx';
import { useResource } from '../ui/useResource.ts';
import { Field } from './Field.tsx';
import { HookCalls } from './HookCalls.tsx';
import { orNone } from './load.ts';

/** The post-publish hook (e.g. a site rebuild hook): its URL, its secret once, a test call, and its last calls. */
export function HookSection({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const path = { params: { path: { id: projectId } } };
  const hook = useResource(
    () => orNone(unwrap(api.GET('/projects/{id}/integrations/post-publish-hook', path))),
    projectId,
  );
  const calls = useResource(
    () => unwrap(api.GET('/projects/{id}/integrations/post-publish-hook/calls', path)),
    projectId,
  );
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const failure = action.error;
  const current = hook.data?.postPublishHook ?? null;
  const field = (name: string) => messageFor(failure, name);
  const general = formMessage(failure, ['url']);

  const change = (run: () => Promise<void>) => action.run(run);
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    await change(async () => {
      const saved = await unwrap(
        api.PUT('/projects/{id}/integrations/post-publish-hook', {
          ...path,
          body: {
            url: String(form.get('url') ?? '').trim(),
            rotateSecret: form.get('rotateSecret') === 'on',
          },
        }),
      );
      if (saved.postPublishHook.secret) setSecret(saved.postPublishHook.secret);
      await hook.reload();
    });
  }
  const sendTest = () =>
    change(async () => {
      await unwrap(api.POST('/projects/{id}/integrations/post-publish-hook/test', path));
      await calls.reload();
    });
  const remove = () =>
    change(async () => {
      if (
        !window.confirm('Remove the post-publish hook? It is no longer called after publications.')
      )
        return;
      await unwrap(api.DELETE('/projects/{id}/integrations/post-publish-hook', path));
      setSecret(null);
      await hook.reload();
    });

  return (
    <section aria-labelledby="hook-title" className="integration">
      <h2 id="hook-title">Post-publish hook</h2>
      <p>
        Called with a signed POST of the <code>article.published</code> event after every
        publication, e.g. your host's deploy hook.
      </p>
      <ErrorNote error={hook.error ?? calls.error} />
      {secret && (
        <NewSecret
          label="Post-publish hook signing secret"
          value={secret}
          hint="Your receiver checks each call's signature with it."
          onDone={() => setSecret(null)}
        />
      )}
      {hook.data !== undefined && (
        <form onSubmit={save} aria-label="Post-publish hook">
          <fieldset disabled={!canWrite || action.busy}>
            <legend>{current ? 'Change the URL' : 'Set a hook'}</legend>
            <Field label="Hook URL" error={field('url')}>
              {(a11y) => (
                <input
                  {...a11y}
                  key={current?.url}
                  name="url"
                  type="url"
                  required
                  defaultValue={current?.url}
                  placeholder="https://api.netlify.com/build_hooks/…"
                />
              )}
            </Field>
            {current && (
              <label className="check">
                <input type="checkbox" name="rotateSecret" /> Issue a new signing secret
              </label>
            )}
            {general && (
              <p role="alert" className="error">
                {general}
              </p>
            )}
            <button type="submit">{current ? 'Save hook' : 'Set hook'}</button>
          </fieldset>
        </form>
      )}
      {current && (
        <div className="actions">
          <button type="button" disabled={!canWrite || action.busy} onClick={() => void sendTest()}>
            Send a test call
          </button>
          <button type="button" disabled={!canWrite || action.busy} onClick={() => void remove()}>
            Remove hook
          </button>
        </div>
      )}
      {current && calls.data && <HookCalls calls={calls.data.calls} />}
    </section>
  );
}
