import type { FormEvent } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import type { components, paths } from '../api/v1.ts';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import type { ProfileFacts } from './ContentProfile.tsx';
import { Field } from './Field.tsx';

type GitHub = components['schemas']['GitHubIntegration'];
type Overrides = components['schemas']['ContentProfileOverrides'];
type Patch = NonNullable<
  NonNullable<
    paths['/projects/{id}/integrations/github']['patch']['requestBody']
  >['content']['application/json']['overrides']
>;
type Role = keyof NonNullable<Patch['fieldNames']>;

/**
 * A person's corrections of the learned profile: the folder, the file name, the extension and
 * each field's name. Only what was changed is sent; a field emptied goes back to what was
 * learned. The server's refusal is shown on the field it names.
 */
export function ProfileOverridesForm({
  projectId,
  facts,
  overrides,
  onSaved,
}: {
  projectId: string;
  facts: ProfileFacts;
  overrides: Overrides;
  onSaved(next: GitHub): void;
}) {
  const action = useAction();
  const failure = action.error;
  const field = (name: string) => messageFor(failure, `overrides.${name}`);
  const roles = facts.fields.flatMap((f) =>
    f.role ? [{ role: f.role as Role, name: f.name }] : [],
  );
  const general = formMessage(failure, [
    'overrides.directory',
    'overrides.fileName',
    'overrides.extension',
    ...roles.map(({ role }) => `overrides.fieldNames.${role}`),
  ]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    /** Empty: back to what was learned; unchanged: not sent. */
    const changed = (value: string, shown: string | null | undefined, overridden: boolean) =>
      value === '' ? (overridden ? null : undefined) : value === shown ? undefined : value;
    const patch: Patch = {};
    const directory = changed(
      text('directory'),
      facts.collection?.directory,
      'directory' in overrides,
    );
    if (directory !== undefined) patch.directory = directory;
    const fileName = changed(text('fileName'), facts.fileName, 'fileName' in overrides);
    if (fileName !== undefined) patch.fileName = fileName;
    const extension = text('extension');
    if (extension !== (overrides.extension ?? ''))
      patch.extension = extension === '' ? null : (extension as 'md' | 'mdx' | 'markdown');
    const fieldNames: NonNullable<Patch['fieldNames']> = {};
    for (const { role, name } of roles) {
      const next = changed(text(`field-${role}`), name, Boolean(overrides.fieldNames?.[role]));
      if (next !== undefined) fieldNames[role] = next;
    }
    if (Object.keys(fieldNames).length > 0) patch.fieldNames = fieldNames;
    await action.run(async () => {
      const saved = await unwrap(
        api.PATCH('/projects/{id}/integrations/github', {
          params: { path: { id: projectId } },
          body: { overrides: patch },
        }),
      );
      onSaved(saved.github);
    });
  }

  return (
    <form onSubmit={submit} aria-label="Correct the content profile">
      <fieldset disabled={action.busy}>
        <legend>Your corrections win over what was learned (empty a field to undo one)</legend>
        <Field label="Posts directory" error={field('directory')}>
          {(a11y) => (
            <input {...a11y} name="directory" defaultValue={facts.collection?.directory ?? ''} />
          )}
        </Field>
        <Field
          label="File name"
          error={field('fileName')}
          hint="Inside the directory, with {slug}, {date}, {year} or {month}: {slug}.md, {slug}/index.mdx, {date}-{slug}.md"
        >
          {(a11y) => <input {...a11y} name="fileName" defaultValue={facts.fileName ?? ''} />}
        </Field>
        <Field label="Extension" error={field('extension')}>
          {(a11y) => (
            <select {...a11y} name="extension" defaultValue={overrides.extension ?? ''}>
              <option value="">as learned (.{facts.extension})</option>
              <option value="md">.md</option>
              <option value="mdx">.mdx</option>
              <option value="markdown">.markdown</option>
            </select>
          )}
        </Field>
        {roles.map(({ role, name }) => (
          <Field key={role} label={`Field holding the ${role}`} error={field(`fieldNames.${role}`)}>
            {(a11y) => <input {...a11y} name={`field-${role}`} defaultValue={name} />}
          </Field>
        ))}
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <button type="submit">{action.busy ? 'Saving…' : 'Save corrections'}</button>
      </fieldset>
    </form>
  );
}
