import { useEffect, type ReactNode } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import type { PageProps } from '../pages.tsx';
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

/** How often the page asks again while a crawl runs. */
const CRAWL_POLL_MS = 1500;

/**
 * The brand profile of a project: everything the crawl learned, each part editable (PUT), and what
 * the last re-crawl changed. Crawled text is shown as text only. A viewer reads it all, changes nothing.
 */
export function BrandPage({ me, params }: PageProps) {
  const projectId = params.projectId;
  const brand = useResource(() => unwrap(api.GET('/projects/{id}/brand', { params: { path: { id: projectId } } })).then((body) => body.brand), projectId);
  const readOnly = me.member.role === 'viewer';
  const pending = brand.data?.crawlStatus === 'pending';
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void brand.reload(), CRAWL_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, brand]);

  const save = async (update: BrandUpdate) => {
    await unwrap(api.PUT('/projects/{id}/brand', { params: { path: { id: projectId } }, body: update }));
    await brand.reload();
  };

  const data = brand.data;
  if (!data) return <main aria-busy={brand.loading}><h1>Brand</h1><ErrorNote error={brand.error} />{brand.loading && <p>Loading…</p>}</main>;
  // A form starts from the profile it was given and starts again when that part changes.
  const keyOf = (part: BrandPart) => JSON.stringify(data[part]);
  return (
    <main className="brand">
      <h1>Brand</h1>
      {readOnly && <p>You have the viewer role: you can read the brand, not change it.</p>}
      <ErrorNote error={brand.error} />
      <CrawlPanel projectId={projectId} brand={data} readOnly={readOnly} crawled={brand.reload} />

      <Section part="voice" data={data}><VoiceForm key={keyOf('voice')} voice={data.voice} readOnly={readOnly} save={save} /></Section>
      <Section part="voiceTraits" data={data}>
        <LinesForm key={keyOf('voiceTraits')} name="Voice traits" readOnly={readOnly} fields={[{ field: 'voiceTraits', label: 'Voice traits', lines: data.voiceTraits }]}
          save={(values) => save({ voiceTraits: values.voiceTraits })} />
      </Section>
      <Section part="doDont" data={data}>
        <LinesForm key={keyOf('doDont')} name="Do and don't" readOnly={readOnly}
          fields={[{ field: 'doDont.do', label: 'Do', lines: data.doDont.do }, { field: 'doDont.dont', label: 'Don\'t', lines: data.doDont.dont }]}
          save={(values) => save({ doDont: { do: values['doDont.do'], dont: values['doDont.dont'] } })} />
      </Section>
      <Section part="companyFacts" data={data}><FactsForm key={keyOf('companyFacts')} facts={data.companyFacts} readOnly={readOnly} save={save} /></Section>
      <section aria-labelledby="palette-heading">
        <h2 id="palette-heading">Palette</h2>
        <p>Learned from the site's CSS and theme colour; contrast ratios are WCAG's (AA needs 4.5:1 for text, 3:1 for large text).</p>
        <Palette palette={data.palette} />
      </section>
      <Section part="coverStyle" data={data}>
        <CoverStyleForm key={keyOf('coverStyle')} coverStyle={data.coverStyle} readOnly={readOnly} save={save} />
        <CoverSample projectId={projectId} version={JSON.stringify([data.coverStyle, data.palette])} />
      </Section>
    </main>
  );
}

function Section({ part, data, children }: { part: BrandPart; data: Brand; children: ReactNode }) {
  return (
    <section aria-labelledby={`${part}-heading`}>
      <h2 id={`${part}-heading`}>
        {PART_NAMES[part]} {data.editedParts.includes(part) && <small className="badge">edited here, kept on re-crawl</small>}
      </h2>
      {children}
    </section>
  );
}
