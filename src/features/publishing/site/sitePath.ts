import {
  effectiveProfile,
  type ContentProfile,
  type LearnedProfile,
} from '../../../domain/integrations/contentProfile.ts';
import type { GitHubSettings } from '../../../domain/integrations/integrations.ts';
import { parseMdx } from '../../../mdx/mdx.ts';
import { articlePath, joinPath } from '../legacyFile.ts';
import { fileProblem, type SiteProblem } from './siteFile.ts';
import { SiteFileError } from './siteFileError.ts';

/**
 * Where a post goes in the repository, by the connection's content profile. Light on purpose:
 * choosing a target needs no Markdown parser (the MDX toolchain loads with the first commit).
 */

/** The post's path in the repository for a profile (null: the legacy `<contentDirectory>/<slug>.mdx`). */
export function sitePostPath(
  profile: LearnedProfile,
  slug: string,
  day: string,
): { path: string } | { problem: SiteProblem } {
  const [year, month] = day.split('-');
  const values: Record<string, string> = { slug, date: day, year, month };
  const pattern = profile.fileName.replace(/\.(?:mdx|md|markdown)$/, '');
  const unknown = pattern.match(/\{(?!(?:slug|date|year|month)\})[^}]*\}/);
  if (unknown || !pattern.includes('{slug}'))
    return {
      problem: fileProblem(
        'a file name with {slug}',
        `The file name pattern ${JSON.stringify(profile.fileName)} ${unknown ? `has ${unknown[0]}, which Inkstream cannot fill` : 'has no {slug}'}`,
        profile.collection.source,
      ),
    };
  const name = `${pattern.replace(/\{(slug|date|year|month)\}/g, (_, key: string) => values[key])}.${profile.extension}`;
  const path = joinPath(profile.collection.directory.replace(/\/+$/, ''), name);
  return safeRepositoryPath(path)
    ? { path }
    : {
        problem: fileProblem(
          'a path inside the repository',
          `The post's path ${JSON.stringify(path)} is not a plain path inside the repository`,
          profile.collection.source,
        ),
      };
}

/** Relative, forward slashes, no `.`/`..`/empty segment: a path that stays where it says. */
export const safeRepositoryPath = (path: string): boolean =>
  path.length > 0 &&
  path.length <= 400 &&
  !path.startsWith('/') &&
  !/[\\\0-\x1f]/.test(path) &&
  path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');

/** A connection as publishing reads it: its settings and, since repositories are learned, its profile. */
export type PublishingConnection = GitHubSettings & { contentProfile?: ContentProfile };

/** The profile a connection publishes with: null for a legacy connection or one still learning. */
export const publishingProfile = (connection: PublishingConnection): LearnedProfile | null =>
  connection.contentProfile ? effectiveProfile(connection.contentProfile) : null;

/** The day an article is dated (its canonical frontmatter's `date`), for `{date}` in a file name. */
export function articleDay(mdx: string): string {
  try {
    return parseMdx(mdx).frontmatter.date.slice(0, 10);
  } catch {
    return mdx.match(/^date:\s*['"]?(\d{4}-\d{2}-\d{2})/m)?.[1] ?? '1970-01-01';
  }
}

/**
 * Where a new publication of `slug` goes: the profile's collection and file name, or the legacy
 * `<contentDirectory>/<slug>.mdx`. Throws SiteFileError when the profile's pattern cannot be filled.
 */
export function publicationPath(
  connection: PublishingConnection,
  slug: string,
  mdx: string,
): string {
  const profile = publishingProfile(connection);
  if (!profile) return articlePath(connection, slug);
  const located = sitePostPath(profile, slug, articleDay(mdx));
  if ('problem' in located) throw new SiteFileError([located.problem]);
  return located.path;
}
