import { z } from 'zod';
import { FIELD_ROLES, type FieldRole } from '../../../domain/integrations/contentProfile.ts';
import { COMMENT_PERMISSIONS } from '../../../domain/integrations/integrations.ts';
import { RepoDirectory } from './connectionInput.ts';

/**
 * What PATCH /projects/:id/integrations/github accepts: the connection's folders and comment
 * permission, and a person's corrections of the learned content profile. Every path stays inside
 * the repository and every name is a plain key, so nothing a person types can place a file
 * outside the content and image folders or break the frontmatter Inkstream writes.
 */

const SEGMENT = /^[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*$/;
const PLACEHOLDER = /\{([^}]*)\}/g;

/** The first thing wrong with a repository path (relative, `/`-separated, no `.`/`..`), or null. */
function pathProblem(value: string, placeholders: readonly string[] = []): string | null {
  if (value.includes('\0')) return 'must not contain a NUL character';
  if (value.includes('\\')) return 'separate folders with /, not a backslash';
  if (value.startsWith('/') || /^[A-Za-z]:/.test(value))
    return 'a path inside the repository (relative, e.g. src/content/blog), not an absolute path';
  if (value === '') return null;
  for (const segment of value.split('/')) {
    if (segment === '..' || segment === '.')
      return 'no . or .. segments: stay inside the repository';
    if (segment === '') return 'no empty segments (//) or trailing /';
    const plain = segment.replace(PLACEHOLDER, (whole, name: string) =>
      placeholders.includes(name) ? 'x' : whole,
    );
    if (plain.includes('{') || plain.includes('}'))
      return `the only placeholders are ${placeholders.map((name) => `{${name}}`).join(' ') || 'none here'}`;
    if (!SEGMENT.test(plain)) return 'letters, digits, . _ - @ + only, in each folder name';
  }
  return null;
}

const repoPath = (description: string) =>
  z
    .string()
    .max(200)
    .superRefine((value, ctx) => {
      const problem = pathProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(description);

const FileName = z
  .string()
  .max(200)
  .superRefine((value, ctx) => {
    const problem =
      pathProblem(value, ['slug', 'date', 'year', 'month']) ??
      (value.includes('{slug}')
        ? null
        : 'must contain {slug}, or every article gets the same name') ??
      (/\.(?:md|mdx|markdown)$/.test(value)
        ? null
        : 'must end in .md, .mdx or .markdown (Markdown the site reads)');
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('The post path inside the directory: {slug}.md, {slug}/index.mdx, {date}-{slug}.md…');

/** A site path (what the site serves a folder at): starts with /, no `..`, nothing but a path. */
const sitePath = (placeholders: readonly string[], description: string) =>
  z
    .string()
    .max(200)
    .superRefine((value, ctx) => {
      const problem = !value.startsWith('/')
        ? 'a path on the site, starting with / (e.g. /images/blog)'
        : value.startsWith('//')
          ? 'a path on the site, not another host (//)'
          : pathProblem(value.slice(1).replace(/\/$/, ''), placeholders);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(description);

const Permalink = sitePath(
  ['slug', 'year', 'month', 'day'],
  "A post's URL on the site, e.g. /blog/{slug}/",
).refine((value) => value.includes('{slug}'), 'must contain {slug}');

/** Words YAML reads as another type (YAML 1.1 and 1.2), and keys that are an object's machinery in JavaScript. */
const NOT_A_PLAIN_KEY = /^(?:null|true|false|yes|no|on|off|y|n|__proto__|constructor|prototype)$/i;

/** A frontmatter key Inkstream can write bare in YAML, TOML and JSON alike. */
const FieldName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/,
    'a plain YAML key: a letter or _, then letters, digits, _ or - (at most 64)',
  )
  .refine(
    (name) => !NOT_A_PLAIN_KEY.test(name),
    'a plain YAML key, not a word YAML reads as a boolean or null, nor __proto__, constructor or prototype',
  );

const FieldNameChange = z
  .union([FieldName, z.literal(false), z.null()])
  .optional()
  .describe(
    'The name to write the field under, false to leave it out of the file, null to use what was learned',
  );

// An object with the roles as its keys (not a record): an unknown role, `__proto__` included, is refused by name.
const FieldNames = z
  .strictObject(
    Object.fromEntries(FIELD_ROLES.map((role) => [role, FieldNameChange])) as Record<
      FieldRole,
      typeof FieldNameChange
    >,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field role ${issue.keys.map((key) => `"${key}"`).join(', ')}; the roles are ${FIELD_ROLES.join(', ')}`
          : undefined,
    },
  )
  .describe("By role: the site's name for the field");

const OverridesPatch = z
  .object({
    directory: repoPath('The folder posts go in (the collection directory)').nullable(),
    fileName: FileName.nullable(),
    extension: z.enum(['md', 'mdx', 'markdown']).nullable(),
    fieldNames: FieldNames,
    imagesDirectory: repoPath("The folder a post's images are committed to").nullable(),
    imagesReference: z.enum(['relative', 'absolute', 'bundle']).nullable(),
    imagesUrlPrefix: sitePath([], 'The site path the images folder is served at').nullable(),
    permalink: Permalink.nullable(),
  })
  .partial()
  .strict()
  .describe('Corrections of what was learned: a value sets one, null removes it');

export const ChangeGitHubBody = z
  .object({
    contentDirectory: RepoDirectory.describe(
      'Where a connection without a learned profile (legacy) commits article files',
    ),
    coverDirectory: RepoDirectory.describe(
      'Where a connection without a learned profile (legacy) commits cover images',
    ),
    commentPermission: z.enum(COMMENT_PERMISSIONS),
    overrides: OverridesPatch,
  })
  .partial()
  .strict();
export type ChangeGitHubBody = z.infer<typeof ChangeGitHubBody>;
