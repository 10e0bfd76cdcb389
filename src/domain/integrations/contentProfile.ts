/**
 * What Inkstream knows of a site's repository: where a post goes, how it is named, what its
 * frontmatter must hold, where its images live and which template engine the site runs over
 * Markdown. Learned by parsing the repository's files (never running them); every learned fact
 * names the file (and line) that taught it, and a person's override wins over what was learned.
 * The article keeps its own canonical text; this profile decides only the shape it is committed in.
 */

/** Where a fact came from: a repository file, or `inkstream` for a default Inkstream chose. */
export type FactSource = { file: string; line?: number };

export const TOOLCHAINS = [
  'astro',
  'hugo',
  'docusaurus',
  'jekyll',
  'eleventy',
  'nextjs',
  'gatsby',
  'nextra',
  'plain',
] as const;
export type Toolchain = (typeof TOOLCHAINS)[number];

/**
 * What a frontmatter field means to Inkstream, whatever the site calls it (`pubDate`, `date`;
 * `heroImage`, `cover`, `image`, `thumbnail`; `summary`, `description`).
 */
export const FIELD_ROLES = [
  'title',
  'description',
  'date',
  'updated',
  'tags',
  'categories',
  'cover',
  'coverAlt',
  'authors',
  'draft',
  'slug',
  'keyword',
] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];

/**
 * A field's type as the site's schema or posts show it. `date`: a YAML date (2026-11-29);
 * `datetime`: a full timestamp; `string`: a quoted text (its `format`, e.g. `YYYY-MM-DD`, says
 * which text a date-as-string takes); `image`: a path the site's image handling resolves;
 * `reference`: keys into another file (authors in `authors.yml`).
 */
export type FieldType =
  | 'string'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'string[]'
  | 'image'
  | 'reference'
  | 'reference[]'
  | 'object';

export type FieldRule = {
  /** null: a field the site has that Inkstream fills with nothing (it must then be optional). */
  role: FieldRole | null;
  name: string;
  type: FieldType;
  /** e.g. `YYYY-MM-DD` for a date written as text; an object field's shape, `{ image, alt }`. */
  format?: string;
  required: boolean;
  /** Allowed values where the schema is an enum. */
  values?: string[];
  source: FactSource;
};

/**
 * The template engine a site runs over a post's Markdown at build time, whose delimiters no text
 * Inkstream writes may carry: `mdx` (expressions, JSX, ESM), `nunjucks` ({{ }}, {% %}, {# #}),
 * `liquid` ({{ }}, {% %}), `hugo` (shortcodes {{< >}}, {{% %}}), `none` (plain CommonMark).
 */
export type TemplateEngine = 'none' | 'mdx' | 'nunjucks' | 'liquid' | 'hugo';

export type ImageRules = {
  /** The folder a post's images are committed to, relative to the repository root. */
  directory: string;
  /**
   * How frontmatter refers to an image: `relative` to the post file (Astro's `image()`),
   * `absolute` site path under `urlPrefix` (files in `public/` or `static/`), `bundle` a bare name
   * beside the post in its folder (a Hugo page bundle, Gatsby).
   */
  reference: 'relative' | 'absolute' | 'bundle';
  /** For `absolute`: the site path `directory` is served at, e.g. `/images/blog`. */
  urlPrefix: string;
  format: 'png' | 'jpg' | 'webp';
  source: FactSource;
};

/** A person's corrections; each replaces what was learned for that part. */
export type ProfileOverrides = {
  directory?: string;
  fileName?: string;
  extension?: 'md' | 'mdx' | 'markdown';
  /** By role: the site's field name for it (`null` leaves the role out of the file). */
  fieldNames?: Partial<Record<FieldRole, string | null>>;
  imagesDirectory?: string;
  imagesReference?: ImageRules['reference'];
  imagesUrlPrefix?: string;
  permalink?: string;
};

export type CollectionChoice = { name: string | null; directory: string; source: FactSource };

export type LearnedProfile = {
  toolchain: Toolchain;
  toolchainSource: FactSource | null;
  collection: CollectionChoice & { alternatives: CollectionChoice[] };
  /**
   * The post's path inside the collection's directory, with `{slug}`, `{date}` (YYYY-MM-DD),
   * `{year}`, `{month}` placeholders: `{slug}.mdx`, `{slug}/index.md`, `{date}-{slug}.md`,
   * `{year}/{slug}.md`. The extension is part of it.
   */
  fileName: string;
  extension: 'md' | 'mdx' | 'markdown';
  frontmatterFormat: 'yaml' | 'toml' | 'json';
  templateEngine: TemplateEngine;
  fields: FieldRule[];
  /** The site's own tags and authors, preferred over new ones. */
  vocabulary: { tags: string[]; authors: { key: string; name: string }[] };
  images: ImageRules | null;
  /** The folder the site serves as it is (`public/`, `static/`, Jekyll's root): null when none. */
  servedRoot: string | null;
  /** A post's public URL with `{slug}`, `{year}`, `{month}`, `{day}` placeholders, e.g. `/blog/{slug}/`. */
  permalink: string | null;
  /** Where a summary ends on list pages, where the site uses a marker (Docusaurus `<!-- truncate -->`). */
  excerptSeparator: string | null;
  /** Facts that could not be learned, each a sentence a person can act on. */
  notes: string[];
};

export type ContentProfileState = 'learning' | 'learned' | 'failed' | 'legacy';

export type ContentProfile = {
  state: ContentProfileState;
  /** The base branch's commit and tree it was learned from: a new tree means learning again. */
  learnedFrom: { commit: string; tree: string } | null;
  learned: LearnedProfile | null;
  failureReason: string | null;
  overrides: ProfileOverrides;
};

/**
 * The profile publishing uses: what was learned with the person's overrides applied, or null
 * while there is none to use (learning, failed, or a legacy connection that still publishes in the
 * fixed shape).
 */
export function effectiveProfile(profile: ContentProfile): LearnedProfile | null {
  if (profile.state !== 'learned' || !profile.learned) return null;
  const { learned, overrides } = profile;
  const renamed = overrides.fieldNames ?? {};
  const fields = learned.fields.flatMap((field) => {
    if (!field.role || !(field.role in renamed)) return [field];
    const name = renamed[field.role];
    return name === null || name === undefined
      ? []
      : [{ ...field, name, source: { file: 'inkstream:overrides' } }];
  });
  const images = learned.images && {
    ...learned.images,
    directory: overrides.imagesDirectory ?? learned.images.directory,
    reference: overrides.imagesReference ?? learned.images.reference,
    urlPrefix: overrides.imagesUrlPrefix ?? learned.images.urlPrefix,
  };
  return {
    ...learned,
    collection: {
      ...learned.collection,
      directory: overrides.directory ?? learned.collection.directory,
    },
    // The extension is part of the file name: overriding one changes the other.
    fileName:
      overrides.fileName ??
      (overrides.extension
        ? withExtension(learned.fileName, overrides.extension)
        : learned.fileName),
    extension:
      overrides.extension ??
      (overrides.fileName ? extensionOf(overrides.fileName) : null) ??
      learned.extension,
    fields,
    images,
    permalink: overrides.permalink ?? learned.permalink,
  };
}

const EXTENSIONS = ['md', 'mdx', 'markdown'] as const;

/** The Markdown extension a file name ends in, or null. */
export function extensionOf(fileName: string): LearnedProfile['extension'] | null {
  const dot = fileName.lastIndexOf('.');
  const extension = dot === -1 ? '' : fileName.slice(dot + 1);
  return (EXTENSIONS as readonly string[]).includes(extension)
    ? (extension as LearnedProfile['extension'])
    : null;
}

const withExtension = (fileName: string, extension: LearnedProfile['extension']): string =>
  `${extensionOf(fileName) ? fileName.slice(0, fileName.lastIndexOf('.')) : fileName}.${extension}`;

/**
 * A change to the overrides, as a person sends it: a value sets that override, `null` removes it
 * (what was learned applies again). For a field role: a name renames the field, `false` leaves
 * it out of the file, `null` removes the override.
 */
export type ProfileOverridesPatch = {
  [K in Exclude<keyof ProfileOverrides, 'fieldNames'>]?: ProfileOverrides[K] | null;
} & { fieldNames?: Partial<Record<FieldRole, string | false | null>> };

export function applyOverridesPatch(
  current: ProfileOverrides,
  patch: ProfileOverridesPatch,
): ProfileOverrides {
  const { fieldNames: namesPatch, ...rest } = patch;
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (namesPatch) {
    const names: Partial<Record<FieldRole, string | null>> = { ...current.fieldNames };
    for (const [role, value] of Object.entries(namesPatch) as [
      FieldRole,
      string | false | null | undefined,
    ][]) {
      if (value === undefined) continue;
      if (value === null) delete names[role];
      else names[role] = value === false ? null : value;
    }
    if (Object.keys(names).length > 0) next.fieldNames = names;
    else delete next.fieldNames;
  }
  return next as ProfileOverrides;
}

/**
 * What is wrong with a set of overrides as a whole, each with the override it names: a file name
 * whose extension is not the extension chosen, two fields the file would carry under one name.
 */
export function overrideConflicts(
  profile: ContentProfile,
): { override: string; message: string }[] {
  const { overrides, learned } = profile;
  const conflicts: { override: string; message: string }[] = [];
  if (overrides.fileName && overrides.extension) {
    const named = extensionOf(overrides.fileName);
    if (named !== overrides.extension)
      conflicts.push({
        override: 'extension',
        message: `The file name ${overrides.fileName} ends in .${named}, not .${overrides.extension}: change one to match the other.`,
      });
  }
  if (learned) {
    const fields = effectiveProfile({ ...profile, state: 'learned' })?.fields ?? [];
    const seen = new Map<string, FieldRule>();
    for (const field of fields) {
      const first = seen.get(field.name);
      if (!first) {
        seen.set(field.name, field);
        continue;
      }
      const renamed = [field, first].find((f) => f.role && overrides.fieldNames?.[f.role]);
      conflicts.push({
        override: `fieldNames.${renamed?.role ?? field.role}`,
        message: `Two fields would both be named "${field.name}" (${first.role ?? 'a field of the site'} and ${field.role ?? 'a field of the site'}): choose another name.`,
      });
    }
  }
  return conflicts;
}
