import { z } from 'zod';
import { ownedProject } from '../../projects/owned.ts';
import { projects, type ProjectDoc } from '../../../../projections/projects.ts';
import { route } from '../../../http/route.ts';
import { applyAppended, commandContext } from '../../../http/resources.ts';
import { idOf } from '../../../http/schemas.ts';
import { BRAND_PARTS, BrandProfile, BrandUpdate } from '../../../domain/projects/brand.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import { emptyBrand } from '../../../domain/projects/project.ts';

const ProjectId = idOf('prj');

/**
 * The profile the crawl learned (empty values until the first crawl finishes), the parts a user
 * set by PUT (a re-crawl keeps them), and where the crawl stands.
 */
const LastCrawl = z
  .object({
    crawlId: z.string(),
    at: z.string(),
    initial: z.boolean().describe("The project's first crawl: nothing to compare with"),
    changedParts: z
      .array(z.enum([...BRAND_PARTS, 'palette']))
      .describe('Parts the crawl changed; an edited part is kept, so it is never among them'),
    keptEditedParts: z
      .array(z.enum(BRAND_PARTS))
      .describe('Parts a person set by PUT that the crawl left as they were'),
    before: BrandProfile.partial().describe('Each changed part as it was before the crawl'),
    voiceFallbackReason: z
      .string()
      .nullable()
      .describe(
        'Why this crawl kept the voice measured from the site although a model is set up (the model failed); null otherwise',
      ),
  })
  .meta({ id: 'BrandCrawlChanges' });

export const BrandBody = BrandProfile.extend({
  editedParts: z.array(z.enum(BRAND_PARTS)),
  crawlStatus: z.enum(['pending', 'done', 'failed']),
  lastCrawl: LastCrawl.nullable().describe(
    'What the latest finished crawl changed; null before the first',
  ),
}).meta({ id: 'Brand' });

const BrandResponse = z.object({ brand: BrandBody });

export function presentBrand(doc: ProjectDoc) {
  const editedParts = BRAND_PARTS.filter((part) => doc.brandEditedParts.includes(part));
  const brand = doc.brand ?? emptyBrand();
  // Profiles recorded before facts kept their sentence have none.
  const companyFacts = brand.companyFacts.map((fact) => ({
    ...fact,
    evidence: fact.evidence ?? null,
  }));
  return {
    ...brand,
    companyFacts,
    editedParts,
    crawlStatus: doc.crawl.status,
    lastCrawl: doc.lastBrandCrawl
      ? {
          ...doc.lastBrandCrawl,
          voiceFallbackReason: doc.lastBrandCrawl.voiceFallbackReason ?? null,
        }
      : null,
  };
}

export const brandRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/brand',
    tag: 'Brand',
    summary: "Read the brand profile: voice, facts, do/don't, traits, cover style and palette",
    params: z.object({ id: ProjectId }),
    responses: { 200: BrandResponse },
    errors: [404],
    async handle({ params, auth, platform }) {
      const doc = await ownedProject({ platform, auth }, params.id);
      return { status: 200, body: { brand: presentBrand(doc) } };
    },
  }),
  route({
    method: 'put',
    path: '/projects/:id/brand',
    tag: 'Brand',
    summary:
      'Set any of voice, companyFacts, doDont, voiceTraits, coverStyle; the other parts are kept',
    params: z.object({ id: ProjectId }),
    body: BrandUpdate,
    responses: { 200: BrandResponse },
    errors: [404, 409],
    async handle(input) {
      const { params, body, auth, platform } = input;
      const doc = await ownedProject({ platform, auth }, params.id);
      const result = await platform.commands.execute(
        projectStream,
        params.id,
        { type: 'EditBrand', update: body, at: platform.clock.now() },
        commandContext(input),
      );
      return {
        status: 200,
        body: { brand: presentBrand(applyAppended(projects, doc, result.events)!) },
      };
    },
  }),
];
