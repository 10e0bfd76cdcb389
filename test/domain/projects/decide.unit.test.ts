import { describe, expect, test } from 'vitest';
import type { BrandPart, BrandProfile } from '../../../src/domain/projects/brand.ts';
import { projectStream, type ProjectCommand } from '../../../src/domain/projects/decide.ts';
import { emptyBrand, type ProjectEvent } from '../../../src/domain/projects/project.ts';
import { DEFAULT_SETTINGS } from '../../../src/domain/projects/settings.ts';
import { given } from '../../support/decider.ts';

const at = '2026-11-25T10:00:00.000Z';
const projectId = 'prj_01jg0000000000000000000001';
const accountId = 'acc_01jg0000000000000000000001';
const site = {
  name: 'Fernleaf Tea',
  websiteUrl: 'https://fernleaf.example',
  blogUrl: null,
  sitemapUrl: null,
};

const create: ProjectCommand = {
  type: 'CreateProject',
  projectId,
  accountId,
  ...site,
  settings: DEFAULT_SETTINGS,
  crawlId: 'crl_1',
  at,
};
const created: ProjectEvent = {
  type: 'ProjectCreated',
  data: { projectId, accountId, ...site, settings: DEFAULT_SETTINGS, at },
};
const crawlRequested = (
  crawlId: string,
  reason: 'project_created' | 'requested' = 'requested',
  overwriteEdited = false,
): ProjectEvent => ({
  type: 'BrandCrawlRequested',
  data: { projectId, crawlId, reason, overwriteEdited, at },
});
const learned: BrandProfile = {
  ...emptyBrand(),
  voiceTraits: ['calm', 'knowledgeable'],
  coverStyle: { mood: 'elegant', shapes: 'circles', typography: 'serif' },
};
const pages = [
  {
    url: 'https://fernleaf.example/',
    title: 'Fernleaf Tea',
    description: 'Loose-leaf tea',
    headings: ['Tea'],
    text: 'We sell tea.',
  },
];
const crawled = (crawlId: string): ProjectCommand => ({
  type: 'RecordBrandCrawled',
  crawlId,
  learned,
  pages,
  provider: 'offline',
  model: null,
  at,
});
const crawlFailed = (crawlId: string): ProjectCommand => ({
  type: 'RecordCrawlFailed',
  crawlId,
  reason: 'robots.txt forbids the site',
  at,
});
const newProject = [created, crawlRequested('crl_1', 'project_created')];

test('creating a project requests its first crawl; a repeat of the same creation decides nothing', () => {
  const project = given(projectStream)
    .when(create)
    .thenYields(...newProject);
  expect(project).toMatchObject({
    status: 'active',
    crawl: { status: 'pending', crawlId: 'crl_1' },
  });
  given(projectStream, ...newProject)
    .when(create)
    .thenNothing();
});

test('every command but creation is refused on a project that does not exist: not_found', () => {
  const commands: ProjectCommand[] = [
    { type: 'UpdateProject', name: 'x', at },
    { type: 'RequestCrawl', crawlId: 'crl_2', overwriteEdited: false, at },
    crawled('crl_1'),
    crawlFailed('crl_1'),
    { type: 'EditBrand', update: { voiceTraits: ['bold'] }, at },
    { type: 'RequestTopicResearch', runId: 'run_1', reason: 'requested', at },
    {
      type: 'RecordResearchCompleted',
      runId: 'run_1',
      topicIds: [],
      provider: 'offline',
      model: null,
      at,
    },
    { type: 'RecordResearchFailed', runId: 'run_1', reason: 'no model', at },
  ];
  for (const command of commands) given(projectStream).when(command).thenFails('not_found');
});

describe('updates decide only what changes', () => {
  const paused: ProjectEvent = { type: 'ProjectPaused', data: { projectId, at } };
  const resumed: ProjectEvent = { type: 'ProjectResumed', data: { projectId, at } };
  test.each([
    ['active', true, [paused]],
    ['active', false, []],
    ['paused', true, []],
    ['paused', false, [resumed]],
  ] as const)('a %s project asked paused=%s', (status, pause, yields) => {
    const history = status === 'paused' ? [...newProject, paused] : newProject;
    given(projectStream, ...history)
      .when({ type: 'UpdateProject', paused: pause, at })
      .thenYields(...yields);
  });

  test('a rename and merged settings; the same values again decide nothing', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      cadence: { ...DEFAULT_SETTINGS.cadence, enabled: true },
    };
    given(projectStream, ...newProject)
      .when({
        type: 'UpdateProject',
        name: 'Fernleaf',
        settings: { cadence: { enabled: true } },
        at,
      })
      .thenYields(
        { type: 'ProjectRenamed', data: { projectId, name: 'Fernleaf', at } },
        { type: 'ProjectSettingsChanged', data: { projectId, settings, at } },
      );
    given(projectStream, ...newProject)
      .when({
        type: 'UpdateProject',
        name: site.name,
        settings: { cadence: { enabled: false } },
        at,
      })
      .thenNothing();
  });
});

describe("a crawl's outcome is recorded once, for the crawl still pending", () => {
  const brandCrawled = (
    crawlId: string,
    changedParts: BrandPart[],
    keptEditedParts: BrandPart[],
    profile = learned,
  ): ProjectEvent => ({
    type: 'BrandCrawled',
    data: {
      projectId,
      crawlId,
      profile,
      pages,
      changedParts,
      keptEditedParts,
      provider: 'offline',
      model: null,
      at,
    },
  });
  const failed: ProjectEvent = {
    type: 'BrandCrawlFailed',
    data: { projectId, crawlId: 'crl_1', reason: 'robots.txt forbids the site', at },
  };

  test('the pending crawl records what it learned, or its failure', () => {
    given(projectStream, ...newProject)
      .when(crawled('crl_1'))
      .thenYields(brandCrawled('crl_1', ['voiceTraits', 'coverStyle'], []));
    given(projectStream, ...newProject)
      .when(crawlFailed('crl_1'))
      .thenYields(failed);
  });

  test.each([
    ['already recorded', [...newProject, brandCrawled('crl_1', [], [])]],
    ['already failed', [...newProject, failed]],
    ['superseded by a newer request', [...newProject, crawlRequested('crl_2')]],
  ])('an outcome for a crawl %s decides nothing', (_why, history) => {
    given(projectStream, ...history)
      .when(crawled('crl_1'))
      .thenNothing();
    given(projectStream, ...history)
      .when(crawlFailed('crl_1'))
      .thenNothing();
  });

  test('a re-crawl keeps the parts a user edited, unless asked to overwrite them', () => {
    const edited: ProjectEvent = {
      type: 'BrandEdited',
      data: { projectId, changes: { voiceTraits: ['plain'] }, parts: ['voiceTraits'], at },
    };
    const keeping = [...newProject, edited, crawlRequested('crl_2')];
    given(projectStream, ...keeping)
      .when(crawled('crl_2'))
      .thenYields(
        brandCrawled('crl_2', ['coverStyle'], ['voiceTraits'], {
          ...learned,
          voiceTraits: ['plain'],
        }),
      );
    given(projectStream, ...newProject, edited)
      .when({ type: 'RequestCrawl', crawlId: 'crl_2', overwriteEdited: true, at })
      .thenYields(crawlRequested('crl_2', 'requested', true));
    given(projectStream, ...newProject, edited, crawlRequested('crl_2', 'requested', true))
      .when(crawled('crl_2'))
      .thenYields(brandCrawled('crl_2', ['voiceTraits', 'coverStyle'], []));
  });

  test('a brand edit merges into the current brand and names its parts', () => {
    given(projectStream, ...newProject)
      .when({
        type: 'EditBrand',
        update: { coverStyle: { mood: 'bold' }, voiceTraits: ['bold'] },
        at,
      })
      .thenYields({
        type: 'BrandEdited',
        data: {
          projectId,
          changes: {
            voiceTraits: ['bold'],
            coverStyle: { ...emptyBrand().coverStyle, mood: 'bold' },
          },
          parts: ['voiceTraits', 'coverStyle'],
          at,
        },
      });
  });
});

describe('topic research runs one at a time', () => {
  const requested = (runId: string): ProjectEvent => ({
    type: 'TopicResearchRequested',
    data: { projectId, runId, reason: 'requested', at },
  });
  const completed: ProjectEvent = {
    type: 'TopicResearchCompleted',
    data: { projectId, runId: 'run_1', topicIds: ['tpc_1'], provider: 'offline', model: null, at },
  };
  const failed: ProjectEvent = {
    type: 'TopicResearchFailed',
    data: { projectId, runId: 'run_1', reason: 'no model', at },
  };
  const request: ProjectCommand = {
    type: 'RequestTopicResearch',
    runId: 'run_2',
    reason: 'requested',
    at,
  };
  const complete: ProjectCommand = {
    type: 'RecordResearchCompleted',
    runId: 'run_1',
    topicIds: ['tpc_1'],
    provider: 'offline',
    model: null,
    at,
  };
  const fail: ProjectCommand = {
    type: 'RecordResearchFailed',
    runId: 'run_1',
    reason: 'no model',
    at,
  };

  test.each([
    ['never run', newProject, 'yields'],
    ['running', [...newProject, requested('run_1')], 'invalid_state'],
    ['done', [...newProject, requested('run_1'), completed], 'yields'],
    ['failed', [...newProject, requested('run_1'), failed], 'yields'],
  ] as const)('a request while research has %s', (_state, history, expected) => {
    const decision = given(projectStream, ...history).when(request);
    if (expected === 'yields') decision.thenYields(requested('run_2'));
    else expect(decision.thenFails('invalid_state').message).toContain('run_1');
  });

  test("the running run records its outcome once; another run's outcome decides nothing", () => {
    const running = [...newProject, requested('run_1')];
    given(projectStream, ...running)
      .when(complete)
      .thenYields(completed);
    given(projectStream, ...running)
      .when(fail)
      .thenYields(failed);
    for (const history of [
      [...running, completed],
      [...running, failed],
      [...newProject, requested('run_2')],
      newProject,
    ]) {
      given(projectStream, ...history)
        .when(complete)
        .thenNothing();
      given(projectStream, ...history)
        .when(fail)
        .thenNothing();
    }
  });
});
