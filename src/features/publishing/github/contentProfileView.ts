import { z } from 'zod';
import {
  type ContentProfile,
  effectiveProfile,
  FIELD_ROLES,
  type LearnedProfile,
  type ProfileOverrides,
  TOOLCHAINS,
} from '../../../domain/integrations/contentProfile.ts';

/**
 * The content profile as GET …/integrations/github shows it to a person or an API client:
 * flattened, with the person's overrides applied. Every text in it comes from the customer's
 * repository and is data to show, never markup.
 */

const Source = z
  .object({ file: z.string(), line: z.number().int().nullable() })
  .describe('The repository file (and line) that taught this; `inkstream:overrides` for a person');

const Field = z.object({
  role: z.enum(FIELD_ROLES).nullable().describe('What the field means to Inkstream; null: unused'),
  name: z.string().describe("The site's name for it"),
  type: z.string(),
  format: z.string().nullable(),
  required: z.boolean(),
  values: z
    .array(z.string())
    .nullable()
    .describe('The allowed values, where the schema is an enum'),
  source: Source,
});

const Collection = z.object({ name: z.string().nullable(), directory: z.string(), source: Source });

const ProfileFacts = z.object({
  toolchain: z.enum(TOOLCHAINS).nullable(),
  toolchainSource: Source.nullable(),
  collection: Collection.extend({
    alternatives: z.array(Collection).describe("The site's other collections"),
  }).nullable(),
  fileName: z
    .string()
    .nullable()
    .describe('Inside the collection directory, with {slug} {date} {year} {month}'),
  extension: z.enum(['md', 'mdx', 'markdown']).nullable(),
  frontmatterFormat: z.enum(['yaml', 'toml', 'json']).nullable(),
  templateEngine: z.enum(['none', 'mdx', 'nunjucks', 'liquid', 'hugo']).nullable(),
  fields: z.array(Field),
  images: z
    .object({
      directory: z.string(),
      reference: z.enum(['relative', 'absolute', 'bundle']),
      urlPrefix: z.string(),
      format: z.enum(['png', 'jpg', 'webp']),
      source: Source,
    })
    .nullable(),
  servedRoot: z.string().nullable(),
  permalink: z.string().nullable(),
  excerptSeparator: z.string().nullable(),
  notes: z.array(z.string()).describe('What could not be learned, each a sentence to act on'),
});

export const Overrides = z
  .object({
    directory: z.string().optional(),
    fileName: z.string().optional(),
    extension: z.enum(['md', 'mdx', 'markdown']).optional(),
    fieldNames: z
      .partialRecord(z.enum(FIELD_ROLES), z.union([z.string(), z.literal(false)]))
      .optional()
      .describe('By role: the name the field is written under; false leaves it out of the file'),
    imagesDirectory: z.string().optional(),
    imagesReference: z.enum(['relative', 'absolute', 'bundle']).optional(),
    imagesUrlPrefix: z.string().optional(),
    permalink: z.string().optional(),
  })
  .meta({ id: 'ContentProfileOverrides' });

export const ContentProfileView = ProfileFacts.extend({
  state: z
    .enum(['learning', 'learned', 'failed', 'legacy'])
    .describe(
      'learning: not read yet; learned: in use; failed: see failureReason; legacy: a connection made before profiles, publishing in the fixed shape until its learned profile is accepted',
    ),
  learnedFrom: z
    .object({ commit: z.string(), tree: z.string() })
    .nullable()
    .describe("The base branch's commit the profile was learned from"),
  failureReason: z.string().nullable(),
  overrides: Overrides,
  proposed: ProfileFacts.nullable().describe(
    'For a legacy connection: what was learned (overrides applied), used once accepted with POST …/integrations/github/profile/accept',
  ),
}).meta({ id: 'ContentProfile' });
export type ContentProfileView = z.infer<typeof ContentProfileView>;

const NO_FACTS: z.infer<typeof ProfileFacts> = {
  toolchain: null,
  toolchainSource: null,
  collection: null,
  fileName: null,
  extension: null,
  frontmatterFormat: null,
  templateEngine: null,
  fields: [],
  images: null,
  servedRoot: null,
  permalink: null,
  excerptSeparator: null,
  notes: [],
};

const source = (fact: { file: string; line?: number }) => ({
  file: fact.file,
  line: fact.line ?? null,
});

function facts(profile: LearnedProfile): z.infer<typeof ProfileFacts> {
  const collection = (choice: LearnedProfile['collection']['alternatives'][number]) => ({
    name: choice.name,
    directory: choice.directory,
    source: source(choice.source),
  });
  return {
    toolchain: profile.toolchain,
    toolchainSource: profile.toolchainSource && source(profile.toolchainSource),
    collection: {
      ...collection(profile.collection),
      alternatives: profile.collection.alternatives.map(collection),
    },
    fileName: profile.fileName,
    extension: profile.extension,
    frontmatterFormat: profile.frontmatterFormat,
    templateEngine: profile.templateEngine,
    fields: profile.fields.map((field) => ({
      role: field.role,
      name: field.name,
      type: field.type,
      format: field.format ?? null,
      required: field.required,
      values: field.values ?? null,
      source: source(field.source),
    })),
    images: profile.images && { ...profile.images, source: source(profile.images.source) },
    servedRoot: profile.servedRoot,
    permalink: profile.permalink,
    excerptSeparator: profile.excerptSeparator,
    notes: profile.notes,
  };
}

/** The overrides as the API writes them: a field left out of the file is `false`. */
function overridesView(overrides: ProfileOverrides): z.infer<typeof Overrides> {
  const { fieldNames, ...rest } = overrides;
  if (!fieldNames) return rest;
  return {
    ...rest,
    fieldNames: Object.fromEntries(
      Object.entries(fieldNames).map(([role, name]) => [role, name ?? false]),
    ),
  };
}

export function presentContentProfile(profile: ContentProfile): ContentProfileView {
  const inUse = effectiveProfile(profile);
  const proposed =
    profile.state === 'legacy' && profile.learned
      ? effectiveProfile({ ...profile, state: 'learned' })
      : null;
  return {
    ...(inUse ? facts(inUse) : NO_FACTS),
    state: profile.state,
    learnedFrom: profile.learnedFrom,
    failureReason: profile.failureReason,
    overrides: overridesView(profile.overrides),
    proposed: proposed && facts(proposed),
  };
}
