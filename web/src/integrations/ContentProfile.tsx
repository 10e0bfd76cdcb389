import { api, unwrap } from '../api/v1Client.ts';
import type { components } from '../api/v1.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { ProfileOverridesForm } from './ProfileOverridesForm.tsx';

type GitHub = components['schemas']['GitHubIntegration'];
type Profile = components['schemas']['ContentProfile'];
export type ProfileFacts = NonNullable<Profile['proposed']>;
type Source = ProfileFacts['fields'][number]['source'];

const TOOLCHAIN_NAMES: Record<string, string> = {
  astro: 'Astro',
  hugo: 'Hugo',
  docusaurus: 'Docusaurus',
  jekyll: 'Jekyll',
  eleventy: 'Eleventy',
  nextjs: 'Next.js',
  gatsby: 'Gatsby',
  nextra: 'Nextra',
  plain: 'a folder of Markdown',
};
const ENGINES: Record<string, string> = {
  none: 'none (plain Markdown)',
  mdx: 'MDX',
  nunjucks: 'Nunjucks',
  liquid: 'Liquid',
  hugo: 'Hugo shortcodes',
};
const REFERENCES: Record<string, string> = {
  relative: 'a path relative to the post',
  absolute: 'a site path',
  bundle: 'a name beside the post (bundle)',
};

/** Where a fact came from. Every text here is the repository's: React writes it as text, never markup. */
function From({ source }: { source: Source | null }) {
  if (!source) return null;
  const where = source.line === null ? source.file : `${source.file}:${source.line}`;
  return <small className="source"> (from {where})</small>;
}

/** The profile's facts: the shape an article is committed in. */
function Facts({ facts }: { facts: ProfileFacts }) {
  const postPath = [facts.collection?.directory, facts.fileName].filter(Boolean).join('/');
  return (
    <>
      <dl className="facts">
        <dt>Toolchain</dt>
        <dd>
          {facts.toolchain ? TOOLCHAIN_NAMES[facts.toolchain] : 'unknown'}
          <From source={facts.toolchainSource} />
        </dd>
        <dt>Where posts go</dt>
        <dd>
          <code data-testid="profile-post-path">{postPath}</code>
          {facts.collection && <From source={facts.collection.source} />}
          {facts.collection && facts.collection.alternatives.length > 0 && (
            <small className="source">
              {' '}
              Other collections:{' '}
              {facts.collection.alternatives.map((other) => other.directory).join(', ')}
            </small>
          )}
        </dd>
        <dt>Frontmatter</dt>
        <dd>{facts.frontmatterFormat?.toUpperCase()}</dd>
        <dt>Template engine</dt>
        <dd>{facts.templateEngine ? ENGINES[facts.templateEngine] : 'unknown'}</dd>
        <dt>Images</dt>
        <dd>
          {facts.images ? (
            <>
              <code>{facts.images.directory}</code>, referred to as{' '}
              {REFERENCES[facts.images.reference]}
              {facts.images.urlPrefix && (
                <>
                  {' '}
                  under <code>{facts.images.urlPrefix}</code>
                </>
              )}
              <From source={facts.images.source} />
            </>
          ) : (
            'none learned'
          )}
        </dd>
        {facts.permalink && (
          <>
            <dt>Post URL</dt>
            <dd>
              <code>{facts.permalink}</code>
            </dd>
          </>
        )}
      </dl>
      <table data-testid="profile-fields">
        <caption>Frontmatter fields</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Holds</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Learned from</th>
          </tr>
        </thead>
        <tbody>
          {facts.fields.map((field) => (
            <tr key={`${field.role}:${field.name}`}>
              <td>
                <code>{field.name}</code>
              </td>
              <td>{field.role ?? '(not filled)'}</td>
              <td>
                {field.type}
                {field.format ? ` (${field.format})` : ''}
              </td>
              <td>{field.required ? 'yes' : 'no'}</td>
              <td>
                {field.source.line === null
                  ? field.source.file
                  : `${field.source.file}:${field.source.line}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {facts.notes.length > 0 && (
        <ul aria-label="Not learned">
          {facts.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The content profile of the GitHub connection: what Inkstream learned of the site's repository,
 * its state, and (for an owner or editor) the corrections and the switch from the legacy shape.
 */
export function ContentProfile({
  projectId,
  github,
  canWrite,
  onChanged,
}: {
  projectId: string;
  github: GitHub;
  canWrite: boolean;
  onChanged(next: GitHub): void;
}) {
  const profile = github.contentProfile;
  const accept = useAction();
  const learned: ProfileFacts | null =
    profile.state === 'learned' ? profile : profile.state === 'legacy' ? profile.proposed : null;

  async function acceptLearned() {
    await accept.run(async () => {
      const next = await unwrap(
        api.POST('/projects/{id}/integrations/github/profile/accept', {
          params: { path: { id: projectId } },
        }),
      );
      onChanged(next.github);
    });
  }

  return (
    <section aria-labelledby="profile-title">
      <h3 id="profile-title">Content profile</h3>
      <p data-testid="profile-state">
        {profile.state === 'learning' && 'Learning the repository’s conventions…'}
        {profile.state === 'failed' &&
          `Learning the repository’s conventions failed: ${profile.failureReason ?? 'no reason given'}`}
        {profile.state === 'learned' && 'Articles are committed in the shape the site uses:'}
        {profile.state === 'legacy' &&
          `Articles are committed in Inkstream’s fixed shape (${github.contentDirectory || '(repository root)'}/<slug>.mdx).`}
        {profile.learnedFrom && (
          <small className="source">
            {' '}
            Read from commit {profile.learnedFrom.commit.slice(0, 7)}.
          </small>
        )}
      </p>
      {profile.state === 'legacy' && learned && (
        <>
          <p>Learned from the repository, not used until you choose it:</p>
          {canWrite && (
            <p>
              <button type="button" disabled={accept.busy} onClick={() => void acceptLearned()}>
                Use the learned profile
              </button>
            </p>
          )}
          <ErrorNote error={accept.error} />
        </>
      )}
      {learned && <Facts facts={learned} />}
      {learned && canWrite && (
        <details>
          <summary>Correct the profile</summary>
          <ProfileOverridesForm
            key={JSON.stringify(profile.overrides)}
            projectId={projectId}
            facts={learned}
            overrides={profile.overrides}
            onSaved={onChanged}
          />
        </details>
      )}
    </section>
  );
}
