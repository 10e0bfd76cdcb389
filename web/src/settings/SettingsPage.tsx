import { useState } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { useLiveReload } from '../live/useLiveChanges.ts';
import type { PageProps } from '../pageTypes.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { CadenceForm } from './CadenceForm.tsx';
import { CoversForm } from './CoversForm.tsx';
import { ModelForm } from './ModelForm.tsx';
import type { ProjectUpdate } from './types.ts';

/** A project's settings (model, cadence, covers) and pausing it. A viewer reads them, changes nothing. */
export function SettingsPage({ me, params }: PageProps) {
  const projectId = params.projectId;
  const project = useResource(
    () =>
      unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } })).then(
        (body) => body.project,
      ),
    projectId,
  );
  const readOnly = me.member.role === 'viewer';
  // Paused, resumed or changed from another session: shown without a reload.
  useLiveReload(
    () => void project.reload(),
    (change) => change.projectId === projectId && change.kind === 'project',
  );
  const pause = useAction();
  // Said beside the saved section: its form starts again from the saved settings.
  const [saved, setSaved] = useState<string | null>(null);
  const save = async (update: ProjectUpdate) => {
    setSaved(null);
    await unwrap(
      api.PATCH('/projects/{id}', { params: { path: { id: projectId } }, body: update }),
    );
    await project.reload();
    setSaved(Object.keys(update.settings ?? {})[0] ?? null);
  };
  const savedNote = (section: string, name: string) =>
    saved === section && <p role="status">{name} saved.</p>;
  const data = project.data;
  if (!data)
    return (
      <main aria-busy={project.loading}>
        <h1>Settings</h1>
        <ErrorNote error={project.error} />
        {project.loading && <p>Loading…</p>}
      </main>
    );
  const { settings } = data;
  return (
    <main className="settings">
      <h1>Settings of {data.name}</h1>
      {readOnly && <p>You have the viewer role: you can read the settings, not change them.</p>}
      <section aria-labelledby="paused-heading">
        <h2 id="paused-heading">Paused or running</h2>
        <p role="status">
          {data.paused
            ? 'Paused: nothing is written on the schedule until the project is resumed.'
            : 'Running.'}
        </p>
        <button
          type="button"
          disabled={readOnly || pause.busy}
          onClick={() => void pause.run(() => save({ paused: !data.paused }))}
        >
          {data.paused ? 'Resume the project' : 'Pause the project'}
        </button>
        <ErrorNote error={pause.error} />
      </section>
      <section aria-labelledby="model-heading">
        <h2 id="model-heading">Model</h2>
        <ModelForm
          key={settings.model ?? ''}
          model={settings.model}
          readOnly={readOnly}
          save={save}
        />
        {savedNote('model', 'Model')}
      </section>
      <section aria-labelledby="cadence-heading">
        <h2 id="cadence-heading">Cadence</h2>
        <CadenceForm
          key={JSON.stringify(settings.cadence)}
          cadence={settings.cadence}
          readOnly={readOnly}
          save={save}
        />
        {savedNote('cadence', 'Cadence')}
      </section>
      <section aria-labelledby="covers-heading">
        <h2 id="covers-heading">Covers</h2>
        <CoversForm
          key={String(settings.covers.enabled)}
          enabled={settings.covers.enabled}
          readOnly={readOnly}
          save={save}
        />
        {savedNote('covers', 'Covers')}
      </section>
    </main>
  );
}
