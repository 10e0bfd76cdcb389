import type { LearnedProfile } from '../../../domain/integrations/contentProfile.ts';
import { articlePath } from '../legacyFile.ts';
import { renderForSite, type RenderedForSite } from './renderForSite.ts';
import type { SiteProblem } from './siteFile.ts';
import { SiteFileError } from './siteFileError.ts';
import { validateForSite } from './validateForSite.ts';
import {
  articleDay,
  publicationPath,
  publishingProfile,
  sitePostPath,
  type PublishingConnection,
} from './sitePath.ts';

export type { PublishingConnection };

/**
 * The profile a commit to `path` is rendered with. A path recorded before the connection had a
 * profile (the legacy `<contentDirectory>/<slug>.mdx` of an article in review or published) keeps
 * the legacy shape, so the pull request's file is not replaced by another one.
 */
function profileForPath(
  connection: PublishingConnection,
  slug: string,
  path: string,
  mdx: string,
): LearnedProfile | null {
  const profile = publishingProfile(connection);
  if (!profile) return null;
  const located = sitePostPath(profile, slug, articleDay(mdx));
  const sitePath = 'path' in located ? located.path : null;
  return path !== sitePath && path === articlePath(connection, slug) ? null : profile;
}

export type CheckedFiles = RenderedForSite & { profile: LearnedProfile | null };

/**
 * The files of one commit of the article at `path`, rendered for the site and checked against its
 * profile (validateForSite). Pure; problems are returned, not thrown.
 */
export function siteFilesFor(
  connection: PublishingConnection,
  article: { mdx: string; slug: string; path: string; cover: Buffer | null },
): CheckedFiles {
  const profile = profileForPath(connection, article.slug, article.path, article.mdx);
  const rendered = renderForSite(
    {
      mdx: article.mdx,
      slug: article.slug,
      cover: article.cover,
      settings: connection,
      path: article.path,
    },
    profile,
  );
  if (!profile || !rendered.post) return { ...rendered, profile };
  const problems: SiteProblem[] = [
    ...rendered.problems,
    ...validateForSite(
      rendered.post,
      profile,
      rendered.files.map((file) => file.path),
    ),
  ];
  return { ...rendered, problems, profile };
}

/**
 * What stops an article from being committed as the site expects, checked when it is approved
 * (a synchronous 409) and again by the publishing job (the profile may have changed meanwhile).
 */
export function publicationProblems(
  connection: PublishingConnection,
  article: { mdx: string; slug: string; hasCover: boolean },
): SiteProblem[] {
  let path: string;
  try {
    path = publicationPath(connection, article.slug, article.mdx);
  } catch (error) {
    if (error instanceof SiteFileError) return [...error.problems];
    throw error;
  }
  return siteFilesFor(connection, {
    mdx: article.mdx,
    slug: article.slug,
    path,
    cover: article.hasCover ? Buffer.alloc(0) : null,
  }).problems;
}
