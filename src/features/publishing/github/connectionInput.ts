import { z } from 'zod';
import {
  COMMENT_PERMISSIONS,
  DEFAULT_COMMENT_PERMISSION,
} from '../../../domain/integrations/integrations.ts';

/** What PUT /projects/:id/integrations/github accepts. */

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

export const Repository = z
  .string()
  .trim()
  .refine((value) => {
    const [owner, repo, ...rest] = value.split('/');
    return rest.length === 0 && OWNER.test(owner ?? '') && REPO.test(repo ?? '');
  }, 'owner/repo, e.g. acme/website')
  .describe("The site's repository as owner/repo");

/** A git branch name (the rules of git check-ref-format, minus the rarely met ones). */
export const BranchName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(
    /^(?!\/)(?!.*\/\/)(?!.*\.\.)(?!.*@\{)(?!.*\.lock(?:\/|$))(?!.*\/$)(?!.*\.$)[^\s~^:?*[\\\x00-\x1f\x7f]+$/,
    'a valid git branch name',
  );

/** A directory inside the repository: relative, no `.` or `..` segments; '' is the repository root. */
export const RepoDirectory = z
  .string()
  .trim()
  .max(200)
  .transform((value) => value.replace(/^\/+|\/+$/g, ''))
  .refine(
    (value) =>
      value === '' ||
      value
        .split('/')
        .every((segment) => /^[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*$/.test(segment) && segment !== '..'),
    'a relative directory such as content/blog (letters, digits, . _ - @ +; no .. segments)',
  );

const TokenCredentials = z
  .object({
    type: z.literal('token'),
    token: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .describe(
        'A fine-grained personal access token with Contents and Pull requests read/write on the repository',
      ),
  })
  .strict();

const AppCredentials = z
  .object({
    type: z.literal('app'),
    appId: z.union([
      z.number().int().positive().transform(String),
      z
        .string()
        .trim()
        .regex(/^(?:\d+|Iv[0-9A-Za-z.]+)$/, 'the App ID (digits) or client ID (Iv…)'),
    ]),
    installationId: z.number().int().positive(),
    privateKey: z
      .string()
      .trim()
      .max(20_000)
      .refine(
        (pem) => /-----BEGIN (?:RSA )?PRIVATE KEY-----/.test(pem),
        "the App's private key PEM as downloaded from its settings",
      ),
  })
  .strict();

export const Credentials = z.discriminatedUnion('type', [TokenCredentials, AppCredentials]);
export type CredentialsInput = z.infer<typeof Credentials>;

export const ConnectGitHubBody = z
  .object({
    repository: Repository,
    baseBranch: BranchName.default('main'),
    contentDirectory: RepoDirectory.default('content/blog').describe(
      'Where article files (<slug>.mdx) are committed',
    ),
    coverDirectory: RepoDirectory.default('public/images/covers').describe(
      'Where cover images (<slug>.png) are committed; the site serves them at /images/covers/<slug>.png',
    ),
    publishMode: z
      .enum(['pr', 'direct'])
      .default('pr')
      .describe(
        'pr: a pull request per article; direct: one commit on the base branch (plan feature)',
      ),
    commentPermission: z
      .enum(COMMENT_PERMISSIONS)
      .default(DEFAULT_COMMENT_PERMISSION)
      .describe(
        'The least role on the repository (write, maintain or admin) whose pull request comments become revisions; others are ignored',
      ),
    credentials: Credentials,
    rotateWebhookSecret: z
      .boolean()
      .default(false)
      .describe('Issue a new GitHub webhook secret (a new connection always gets one)'),
  })
  .strict();
export type ConnectGitHubBody = z.infer<typeof ConnectGitHubBody>;
