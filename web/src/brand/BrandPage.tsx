import { useState, type ReactNode } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { useLiveReload } from '../live/useLiveChanges.ts';
import type { PageProps } from '../pageTypes.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { CoverSample } from './CoverSample.tsx';
import { CoverStyleForm } from './CoverStyleForm.tsx';
import { CrawlPanel } from './CrawlPanel.tsx';
import { FactsForm } from './FactsForm.tsx';
import { LinesForm } from './LinesForm.tsx';
import { Palette } from './Palette.tsx';
import { PART_NAMES, type Brand, type BrandPart, type BrandUpdate } from './types.ts';
import { VoiceForm } from './VoiceForm.tsx';

/**
 * The brand profile of a project: everything the crawl learned, each part editable (PUT), and what
 * the last re-crawl changed. Crawled text is shown as text only. A viewer reads it all, changes nothing.
 */
export function BrandPage({ me, params }: PageProps) {
  const projectId = params.projectId;
  const brand = useResource(
    () =>
      unwrap(api.GET('/projects/{id}/brand', { params: { path: { id: projectId } } })).then(
        (body) => body.brand,
      ),
    projectId,
  );
  const readOnly = me.member.role === 'viewer';
  // A crawl ending (or starting), or an edit from another session, shows without a reload.
  useLiveReload(
    () => void brand.reload(),
    (change) =>
      change.projectId === projectId && (change.kind === 'crawl' || change.event === 'BrandEdited'),
  );

  // Said in the saved part's section: the form itself starts again from the saved profile.
  const [saved, setSaved] = useState<BrandPart | null>(null);
  const save = async (update: BrandUpdate) => {
    setSaved(null);
    await unwrap(
      api.PUT('/projects/{id}/brand', { params: { path: { id: projectId } }, body: update }),
    );
    await brand.reload();
    setSaved(Object.keys(update)[0] as BrandPart);
  };

  const data = brand.data;
  if (!data)
    return (
      <main aria-busy={brand.loading}>
        <h1>Brand</h1>
        <ErrorNote error={brand.error} />
        {brand.loading && <p>Loading…</p>}
      </main>
    );
  // A form starts from the profile it was given and starts again when that part changes.
  const keyOf = (part: BrandPart) => JSON.stringify(data[part]);
  return (
    <main className="brand">
      <h1>Brand</h1>
      {readOnly && <p>You have the viewer role: you can read the brand, not change it.</p>}
      <ErrorNote error={brand.error} />
      <CrawlPanel projectId={projectId} brand={data} readOnly={readOnly} crawled={brand.reload} />

      <Section saved={saved} part="voice" data={data}>
        <VoiceForm key={keyOf('voice')} voice={data.voice} readOnly={readOnly} save={save} />
      </Section>
      <Section saved={saved} part="voiceTraits" data={data}>
        <LinesForm
          key={keyOf('voiceTraits')}
          name="Voice traits"
          readOnly={readOnly}
          fields={[{ field: 'voiceTraits', label: 'Voice traits', lines: data.voiceTraits }]}
          save={(values) => save({ voiceTraits: values.voiceTraits })}
        />
      </Section>
      <Section saved={saved} part="doDont" data={data}>
        <LinesForm
          key={keyOf('doDont')}
          name="Do and don't"
          readOnly={readOnly}
          fields={[
            { field: 'doDont.do', label: 'Do', lines: data.doDont.do },
            { field: 'doDont.dont', label: "Don't", lines: data.doDont.dont },
          ]}
          save={(values) =>
            save({ doDont: { do: values['doDont.do'], dont: values['doDont.dont'] } })
          }
        />
      </Section>
      <Section saved={saved} part="companyFacts" data={data}>
        <FactsForm
          key={keyOf('companyFacts')}
          facts={data.companyFacts}
          readOnly={readOnly}
          save={save}
        />
      </Section>
      <section aria-labelledby="palette-heading">
        <h2 id="palette-heading">Palette</h2>
        <p>
          Learned from the site's CSS and theme colour; contrast ratios are WCAG's (AA needs 4.5:1
          for text, 3:1 for large text).
        </p>
        <Palette palette={data.palette} />
      </section>
      <Section saved={saved} part="coverStyle" data={data}>
        <CoverStyleForm
          key={keyOf('coverStyle')}
          coverStyle={data.coverStyle}
          readOnly={readOnly}
          save={save}
        />
        <CoverSample
          projectId={projectId}
          version={JSON.stringify([data.coverStyle, data.palette])}
        />
      </Section>
    </main>
  );
}

function Section({
  part,
  data,
  saved,
  children,
}: {
  part: BrandPart;
  data: Brand;
  saved: BrandPart | null;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${part}-heading`}>
      <h2 id={`${part}-heading`}>
        {PART_NAMES[part]}{' '}
        {data.editedParts.includes(part) && (
          <small className="edited-badge">edited here, kept on re-crawl</small>
        )}
      </h2>
      {children}
      {saved === part && <p role="status">{PART_NAMES[part]} saved.</p>}
    </section>
  );
}
