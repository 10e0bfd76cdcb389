import { useState, type FormEvent } from 'react';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { Field } from './Field.tsx';
import { wholeFieldMessage } from './wholeFieldMessage.ts';
import { PlanLimit } from './PlanLimit.tsx';

const SHOWN = [
  'property',
  'urlPattern',
  'credentials',
  'credentials.clientId',
  'credentials.clientSecret',
  'credentials.refreshToken',
  'credentials.clientEmail',
  'credentials.privateKey',
];

/**
 * Connect a Google Search Console property; Google is asked before anything is saved. Connecting
 * again starts from the current property and URL pattern, so giving a new credential keeps a
 * pattern set before (an empty field would fall back to the project's default pattern).
 */
export function SearchForm({
  projectId,
  current,
  disabled,
  onSaved,
}: {
  projectId: string;
  current: { property: string; urlPattern: string } | null;
  disabled: boolean;
  onSaved(): void;
}) {
  const [kind, setKind] = useState<'oauth' | 'service_account'>('service_account');
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
      kind === 'oauth'
        ? {
            type: 'oauth' as const,
            clientId: text('clientId'),
            clientSecret: text('clientSecret'),
            refreshToken: text('refreshToken'),
          }
        : {
            type: 'service_account' as const,
            clientEmail: text('clientEmail'),
            privateKey: text('privateKey'),
          };
    await action.run(async () => {
      await unwrap(
        api.PUT('/projects/{id}/integrations/search-analytics', {
          params: { path: { id: projectId } },
          body: {
            property: text('property'),
            credentials,
            ...(text('urlPattern') ? { urlPattern: text('urlPattern') } : {}),
          },
        }),
      );
      onSaved();
    });
  }

  return (
    <form onSubmit={submit} aria-label="Connect search analytics">
      <fieldset disabled={disabled || action.busy}>
        <legend>
          {current ? 'Connect again (give the credential again)' : 'Connect Google Search Console'}
        </legend>
        <Field
          label="Property"
          error={field('property')}
          hint="sc-domain:example.com, or a URL prefix such as https://example.com/"
        >
          {(a11y) => <input {...a11y} name="property" defaultValue={current?.property} required />}
        </Field>
        <Field
          label="Article URL pattern (optional)"
          error={field('urlPattern')}
          hint="e.g. https://www.example.com/blog/{slug}"
        >
          {(a11y) => <input {...a11y} name="urlPattern" defaultValue={current?.urlPattern} />}
        </Field>
        <Field label="Credential">
          {(a11y) => (
            <select
              {...a11y}
              value={kind}
              onChange={(event) =>
                setKind(event.target.value === 'oauth' ? 'oauth' : 'service_account')
              }
            >
              <option value="service_account">Service account</option>
              <option value="oauth">OAuth refresh token</option>
            </select>
          )}
        </Field>
        {kind === 'service_account' ? (
          <>
            <Field
              label="Service account email"
              error={field('credentials.clientEmail') ?? credentialError}
            >
              {(a11y) => <input {...a11y} name="clientEmail" type="email" required />}
            </Field>
            <Field label="Service account private key" error={field('credentials.privateKey')}>
              {(a11y) => <textarea {...a11y} name="privateKey" rows={4} required />}
            </Field>
          </>
        ) : (
          <>
            <Field label="OAuth client ID" error={field('credentials.clientId')}>
              {(a11y) => <input {...a11y} name="clientId" required />}
            </Field>
            <Field label="OAuth client secret" error={field('credentials.clientSecret')}>
              {(a11y) => (
                <input {...a11y} name="clientSecret" type="password" autoComplete="off" required />
              )}
            </Field>
            <Field
              label="Refresh token"
              error={field('credentials.refreshToken') ?? credentialError}
            >
              {(a11y) => (
                <input {...a11y} name="refreshToken" type="password" autoComplete="off" required />
              )}
            </Field>
          </>
        )}
        {failure?.error.status === 402 ? (
          <PlanLimit failure={failure} />
        ) : (
          general && (
            <p role="alert" className="error">
              {general}
            </p>
          )
        )}
        <button type="submit">
          {action.busy ? 'Checking with Google…' : 'Connect search analytics'}
        </button>
      </fieldset>
    </form>
  );
}
