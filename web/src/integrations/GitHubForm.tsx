import { useState, type FormEvent } from 'react';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { api, unwrap } from '../api/v1Client.ts';
import type { components } from '../api/v1.ts';
import { Field } from './Field.tsx';
import { wholeFieldMessage } from './wholeFieldMessage.ts';

type GitHub = components['schemas']['GitHubIntegration'];
const SHOWN = [
  'repository',
  'baseBranch',
  'contentDirectory',
  'publishMode',
  'credentials',
  'credentials.token',
  'credentials.appId',
  'credentials.installationId',
  'credentials.privateKey',
];

/**
 * Connect (or save again) the project's GitHub repository. GitHub is asked before anything is
 * saved; its refusal comes back naming the field to fix. Credentials are never shown again, so
 * every save gives them anew.
 */
export function GitHubForm({
  projectId,
  current,
  disabled,
  onSaved,
}: {
  projectId: string;
  current: GitHub | null;
  disabled: boolean;
  onSaved(saved: GitHub): void;
}) {
  const [kind, setKind] = useState<'token' | 'app'>(current?.credentials.type ?? 'token');
  const action = useAction();
  const failure = action.error;
  const field = (name: string) => messageFor(failure, name);
  const general = formMessage(failure, SHOWN);
  const credentialError = wholeFieldMessage(failure, 'credentials');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const credentials =
      kind === 'token'
        ? { type: 'token' as const, token: text('token') }
        : {
            type: 'app' as const,
            appId: text('appId'),
            installationId: Number(text('installationId')),
            privateKey: text('privateKey'),
          };
    await action.run(async () => {
      const saved = await unwrap(
        api.PUT('/projects/{id}/integrations/github', {
          params: { path: { id: projectId } },
          body: {
            repository: text('repository'),
            baseBranch: text('baseBranch'),
            contentDirectory: text('contentDirectory'),
            publishMode: text('publishMode') === 'direct' ? 'direct' : 'pr',
            credentials,
            rotateWebhookSecret: form.get('rotateWebhookSecret') === 'on',
          },
        }),
      );
      onSaved(saved.github);
    });
  }

  return (
    <form onSubmit={submit} aria-label={current ? 'Save the GitHub connection' : 'Connect GitHub'}>
      <fieldset disabled={disabled || action.busy}>
        <legend>
          {current ? 'Change the connection (give the credential again)' : 'Connect a repository'}
        </legend>
        <Field label="Repository (owner/name)" error={field('repository')}>
          {(a11y) => (
            <input
              {...a11y}
              name="repository"
              required
              defaultValue={current?.repository}
              placeholder="acme/website"
            />
          )}
        </Field>
        <Field label="Base branch" error={field('baseBranch')}>
          {(a11y) => (
            <input
              {...a11y}
              name="baseBranch"
              required
              defaultValue={current?.baseBranch ?? 'main'}
            />
          )}
        </Field>
        <Field
          label="Content directory"
          error={field('contentDirectory')}
          hint="Articles are committed as <directory>/<slug>.mdx"
        >
          {(a11y) => (
            <input
              {...a11y}
              name="contentDirectory"
              defaultValue={current?.contentDirectory ?? 'content/blog'}
            />
          )}
        </Field>
        <Field label="Publish by" error={field('publishMode')}>
          {(a11y) => (
            <select {...a11y} name="publishMode" defaultValue={current?.publishMode ?? 'pr'}>
              <option value="pr">Pull request per article</option>
              <option value="direct">Direct push to the base branch</option>
            </select>
          )}
        </Field>
        <Field
          label="Credential"
          hint="A fine-grained token, or a GitHub App installation, with Contents and Pull requests read and write"
        >
          {(a11y) => (
            <select
              {...a11y}
              value={kind}
              onChange={(event) => setKind(event.target.value === 'app' ? 'app' : 'token')}
            >
              <option value="token">Personal access token</option>
              <option value="app">GitHub App</option>
            </select>
          )}
        </Field>
        {kind === 'token' ? (
          <Field label="Token" error={field('credentials.token') ?? credentialError}>
            {(a11y) => <input {...a11y} name="token" type="password" autoComplete="off" required />}
          </Field>
        ) : (
          <>
            <Field label="App ID" error={field('credentials.appId')}>
              {(a11y) => (
                <input
                  {...a11y}
                  name="appId"
                  required
                  defaultValue={
                    current?.credentials.type === 'app' ? current.credentials.appId : ''
                  }
                />
              )}
            </Field>
            <Field label="Installation ID" error={field('credentials.installationId')}>
              {(a11y) => (
                <input
                  {...a11y}
                  name="installationId"
                  inputMode="numeric"
                  required
                  defaultValue={
                    current?.credentials.type === 'app' ? current.credentials.installationId : ''
                  }
                />
              )}
            </Field>
            <Field
              label="Private key (PEM)"
              error={field('credentials.privateKey') ?? credentialError}
            >
              {(a11y) => <textarea {...a11y} name="privateKey" rows={4} required />}
            </Field>
          </>
        )}
        {current && (
          <label className="check">
            <input type="checkbox" name="rotateWebhookSecret" /> Issue a new webhook secret
          </label>
        )}
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <button type="submit">
          {action.busy ? 'Checking with GitHub…' : current ? 'Save connection' : 'Connect GitHub'}
        </button>
      </fieldset>
    </form>
  );
}
