import type { ArticleDoc } from '../../../../projections/articles.ts';
import type { BrandProfile } from '../../../domain/projects/brand.ts';
import { articlePayload } from '../feed/articlePayloads.ts';
import type { CatalogueEventType } from './payloadSchemas.ts';

/** The data of the test event POST /webhooks/:id/test sends. */
export const testEventData = (endpointId: string) => ({
  endpointId,
  message: 'A test event from Inkstream. Check its signature as you would for any other event.',
});

const AT = '2026-01-15T09:30:00.000Z';
const project = {
  id: 'prj_01kf0f2e00a1b2c3d4e5f6g7h8',
  name: 'Fernleaf Tea',
  websiteUrl: 'https://fernleaf.example',
};

/** A published article as the read model holds it; the article examples are built from it by the feed's own builder. */
const article: ArticleDoc = {
  id: 'art_01kf0fz9y0h8k2m4p6r8t0v2xa',
  accountId: 'acc_example',
  projectId: project.id,
  topicId: 'tpc_01kf0fy1x0d3f5h7k9m1p3r5tv',
  status: 'merged',
  title: 'Brewing green tea at 80 °C',
  keyword: 'green tea temperature',
  slug: 'brewing-green-tea',
  version: 2,
  content: '---\ntitle: Brewing green tea at 80 °C\n---\n\nGreen tea turns bitter above 80 °C…\n',
  frontmatter: { title: 'Brewing green tea at 80 °C' },
  body: 'Green tea turns bitter above 80 °C…\n',
  wordCount: 1180,
  sources: [{ url: 'https://fernleaf.example/guides/brewing', title: 'Brewing guide' }],
  cover: {
    title: 'Brewing green tea at 80 °C',
    palette: { primary: '#2f6b3a', accent: '#e0a526', background: '#f7f5ef', text: '#1d2420' },
    style: { mood: 'calm', shapes: 'waves', typography: 'serif' },
  },
  generation: {
    provider: 'openai',
    model: 'gpt-4o-mini',
    usage: { promptTokens: 5210, completionTokens: 1630, totalTokens: 6840 },
  },
  checks: [],
  neutralised: [],
  prUrl: 'https://github.com/fernleaf/site/pull/42',
  prNumber: 42,
  branch: 'inkstream/brewing-green-tea',
  path: 'content/blog/brewing-green-tea.mdx',
  publishMode: 'pr',
  pendingRevisions: 0,
  lastRevisionSummary: null,
  revisionFailure: null,
  failure: null,
  publishedAt: AT,
  createdAt: '2026-01-15T08:02:11.000Z',
  updatedAt: AT,
  createdMonth: '2026-01',
  usage: { tokensIn: 5210, tokensOut: 1630, costUsd: 0.0018, steps: [] },
  waitingFor: null,
};

const brand: BrandProfile = {
  voice: {
    summary: 'Warm and precise; explains the why behind each step.',
    person: 'second',
    formality: 'neutral',
    avgSentenceWords: 16,
    examples: ['Let the water cool for two minutes before you pour.'],
    language: 'en-GB',
  },
  voiceTraits: ['warm', 'precise'],
  companyFacts: [
    {
      kind: 'founded',
      value: 'Founded in 2014 in Bristol',
      sourceUrl: 'https://fernleaf.example/about',
      evidence: 'Fernleaf was founded in 2014 in a Bristol kitchen.',
    },
  ],
  doDont: { do: ['Give temperatures in °C'], dont: ['Promise health benefits'] },
  coverStyle: { mood: 'calm', shapes: 'waves', typography: 'serif' },
  palette: {
    colors: [{ hex: '#2f6b3a', role: 'primary', source: 'theme-color', weight: 1 }],
    primary: '#2f6b3a',
    accent: '#e0a526',
    background: '#f7f5ef',
    text: '#1d2420',
  },
};

/** One example `data` per event type. */
export const EVENT_EXAMPLES: Record<CatalogueEventType, Record<string, unknown>> = {
  'article.status_changed': articlePayload(
    { ...article, status: 'pr_open', publishedAt: null },
    'publishing',
  ),
  'article.published': articlePayload(article, 'pr_open'),
  'article.revised': {
    ...articlePayload(
      {
        ...article,
        version: 3,
        lastRevisionSummary: 'Shortened the intro and added a brewing table.',
      },
      'merged',
    ),
    revision: {
      id: 'rev_01kf0h2b00q1w2e3r4t5y6u7i8',
      version: 3,
      summary: 'Shortened the intro and added a brewing table.',
      diff: { addedLines: 12, removedLines: 7, addedWords: 140, removedWords: 95 },
    },
  },
  'topics.suggested': {
    status: 'succeeded',
    failureReason: null,
    projectId: project.id,
    project,
    runId: 'run_01kf0e9c00b2n4m6q8s0u2w4y6',
    topics: [
      {
        id: 'tpc_01kf0fy1x0d3f5h7k9m1p3r5tv',
        title: 'Why green tea turns bitter',
        keyword: 'bitter green tea',
        brief: 'Temperature, steeping time and leaf grade.',
        status: 'suggested',
        priority: 50,
        rationale: "Customers ask it often in the shop's FAQ.",
        scheduledFor: null,
        createdAt: AT,
      },
    ],
    provider: 'openai',
    model: 'gpt-4o-mini',
    completedAt: AT,
  },
  'brand.crawled': {
    status: 'succeeded',
    failureReason: null,
    projectId: project.id,
    project,
    crawlId: 'crl_01kf0e1a00c3e5g7j9l1n3q5s7',
    brand,
    changedParts: ['voice', 'companyFacts'],
    keptEditedParts: ['doDont'],
    pagesCrawled: 1,
    pages: [{ url: 'https://fernleaf.example/', title: 'Fernleaf Tea' }],
    provider: 'offline',
    model: null,
    crawledAt: AT,
  },
  'webhook.test': testEventData('whk_01kf0g0000a1b2c3d4e5f6g7h8'),
};
