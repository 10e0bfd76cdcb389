import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  BRAND_PARTS,
  type BrandPart,
  type BrandProfile,
  type BrandUpdate,
  type CrawledPageSummary,
} from './brand.ts';
import {
  emptyBrand,
  evolveProject,
  initialProject,
  PROJECT_CATEGORY,
  type ActiveProject,
  type Project,
  type ProjectEvent,
} from './project.ts';
import { mergeSettings, type Settings, type SettingsPatch } from './settings.ts';

export type ProjectCommand =
  | {
      type: 'CreateProject';
      projectId: string;
      accountId: string;
      name: string;
      websiteUrl: string;
      blogUrl: string | null;
      sitemapUrl: string | null;
      settings: Settings;
      crawlId: string;
      at: string;
    }
  | { type: 'UpdateProject'; name?: string; paused?: boolean; settings?: SettingsPatch; at: string }
  | { type: 'RequestCrawl'; crawlId: string; overwriteEdited: boolean; at: string }
  | {
      type: 'RecordBrandCrawled';
      crawlId: string;
      learned: BrandProfile;
      pages: CrawledPageSummary[];
      sitemapUrls?: string[];
      provider: string;
      model: string | null;
      at: string;
      voiceFallbackReason?: string;
    }
  | { type: 'RecordCrawlFailed'; crawlId: string; reason: string; at: string }
  | { type: 'EditBrand'; update: BrandUpdate; at: string }
  | { type: 'RequestTopicResearch'; runId: string; reason: 'requested' | 'cadence'; at: string }
  | {
      type: 'RecordResearchCompleted';
      runId: string;
      topicIds: string[];
      provider: string;
      model: string | null;
      at: string;
    }
  | { type: 'RecordResearchFailed'; runId: string; reason: string; at: string };

export function decideProject(command: ProjectCommand, state: Project): ProjectEvent[] {
  switch (command.type) {
    case 'CreateProject': {
      if (state.status !== 'none') return []; // a retried create is a no-op
      const { type: _type, crawlId, ...data } = command;
      return [
        { type: 'ProjectCreated', data: { ...data } },
        {
          type: 'BrandCrawlRequested',
          data: {
            projectId: command.projectId,
            crawlId,
            reason: 'project_created',
            overwriteEdited: false,
            at: command.at,
          },
        },
      ];
    }
    case 'UpdateProject':
      return update(command, requireProject(state));
    case 'RequestCrawl': {
      const project = requireProject(state);
      return [
        {
          type: 'BrandCrawlRequested',
          data: {
            projectId: project.id,
            crawlId: command.crawlId,
            reason: 'requested',
            overwriteEdited: command.overwriteEdited,
            at: command.at,
          },
        },
      ];
    }
    case 'RecordBrandCrawled': {
      const project = requireProject(state);
      if (project.crawl.crawlId !== command.crawlId || project.crawl.status !== 'pending')
        return [];
      const previous = project.brand ?? emptyBrand();
      const kept = project.editedParts;
      const profile = { ...command.learned } as BrandProfile;
      for (const part of kept) (profile as Record<BrandPart, unknown>)[part] = previous[part];
      const changedParts = BRAND_PARTS.filter(
        (part) => JSON.stringify(previous[part]) !== JSON.stringify(profile[part]),
      );
      return [
        {
          type: 'BrandCrawled',
          data: {
            projectId: project.id,
            crawlId: command.crawlId,
            profile,
            pages: command.pages,
            changedParts,
            keptEditedParts: kept,
            provider: command.provider,
            model: command.model,
            at: command.at,
            ...(command.sitemapUrls?.length ? { sitemapUrls: command.sitemapUrls } : {}),
            ...(command.voiceFallbackReason
              ? { voiceFallbackReason: command.voiceFallbackReason }
              : {}),
          },
        },
      ];
    }
    case 'RecordCrawlFailed': {
      const project = requireProject(state);
      if (project.crawl.crawlId !== command.crawlId || project.crawl.status !== 'pending')
        return [];
      return [
        {
          type: 'BrandCrawlFailed',
          data: {
            projectId: project.id,
            crawlId: command.crawlId,
            reason: command.reason,
            at: command.at,
          },
        },
      ];
    }
    case 'EditBrand': {
      const project = requireProject(state);
      const current = project.brand ?? emptyBrand();
      const changes: Partial<BrandProfile> = {};
      const update = command.update;
      if (update.voice) changes.voice = { ...current.voice, ...update.voice };
      if (update.companyFacts) changes.companyFacts = update.companyFacts;
      if (update.doDont) changes.doDont = { ...current.doDont, ...update.doDont };
      if (update.voiceTraits) changes.voiceTraits = update.voiceTraits;
      if (update.coverStyle) changes.coverStyle = { ...current.coverStyle, ...update.coverStyle };
      const parts = Object.keys(changes) as BrandPart[];
      return [
        { type: 'BrandEdited', data: { projectId: project.id, changes, parts, at: command.at } },
      ];
    }
    case 'RequestTopicResearch': {
      const project = requireProject(state);
      if (project.research?.status === 'running') {
        throw new AppError(
          'invalid_state',
          `A topic research run (${project.research.runId}) is already running for this project; wait for topics.suggested.`,
        );
      }
      return [
        {
          type: 'TopicResearchRequested',
          data: {
            projectId: project.id,
            runId: command.runId,
            reason: command.reason,
            at: command.at,
          },
        },
      ];
    }
    case 'RecordResearchCompleted': {
      const project = requireProject(state);
      if (project.research?.runId !== command.runId || project.research.status !== 'running')
        return [];
      return [
        {
          type: 'TopicResearchCompleted',
          data: {
            projectId: project.id,
            runId: command.runId,
            topicIds: command.topicIds,
            provider: command.provider,
            model: command.model,
            at: command.at,
          },
        },
      ];
    }
    case 'RecordResearchFailed': {
      const project = requireProject(state);
      if (project.research?.runId !== command.runId || project.research.status !== 'running')
        return [];
      return [
        {
          type: 'TopicResearchFailed',
          data: {
            projectId: project.id,
            runId: command.runId,
            reason: command.reason,
            at: command.at,
          },
        },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function update(
  command: Extract<ProjectCommand, { type: 'UpdateProject' }>,
  project: ActiveProject,
): ProjectEvent[] {
  const events: ProjectEvent[] = [];
  const { at } = command;
  if (command.name !== undefined && command.name !== project.name)
    events.push({
      type: 'ProjectRenamed',
      data: { projectId: project.id, name: command.name, at },
    });
  if (command.paused === true && project.status === 'active')
    events.push({ type: 'ProjectPaused', data: { projectId: project.id, at } });
  if (command.paused === false && project.status === 'paused')
    events.push({ type: 'ProjectResumed', data: { projectId: project.id, at } });
  if (command.settings) {
    const settings = mergeSettings(project.settings, command.settings);
    if (JSON.stringify(settings) !== JSON.stringify(project.settings))
      events.push({
        type: 'ProjectSettingsChanged',
        data: { projectId: project.id, settings, at },
      });
  }
  return events;
}

export function requireProject(state: Project): ActiveProject {
  if (state.status === 'none') throw new AppError('not_found', 'No such project.');
  return state;
}

export const projectStream: StreamType<Project, ProjectEvent, ProjectCommand> = {
  category: PROJECT_CATEGORY,
  initial: initialProject,
  evolve: evolveProject,
  decide: decideProject,
};
