import { z } from 'zod';
import type { Config } from '../../core/config.ts';
import { AppError } from '../../core/errors.ts';
import { allowedModels } from '../../integrations/llm/modelAllowList.ts';
import { Budget } from '../accounts/budget.ts';
import { DecaySettings } from '../decay/settings.ts';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** When the scheduler writes on its own: on the given weekdays at a local time, up to a weekly count. */
export const Cadence = z
  .object({
    enabled: z.boolean(),
    articlesPerWeek: z.number().int().min(1).max(21),
    days: z.array(z.enum(WEEKDAYS)).min(1).max(7),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time is HH:MM (24 h)'),
    timezone: z.string().refine(isTimeZone, 'an IANA time zone such as Europe/Berlin'),
    /** Start a research run when fewer approved topics than this wait. */
    minApprovedBacklog: z.number().int().min(0).max(50),
  })
  .strict();
export type Cadence = z.infer<typeof Cadence>;

/** The corpus crawl (docs/site-corpus.md): how many pages it keeps, and how often it runs again on its own. */
export const CrawlSettings = z
  .object({
    /** The most pages the corpus knows; the account's plan may allow fewer. */
    maxPages: z.number().int().min(1).max(100_000),
    /** Days between scheduled re-crawls; 0 turns them off. */
    recrawlDays: z.number().int().min(0).max(365),
  })
  .strict();
export type CrawlSettings = z.infer<typeof CrawlSettings>;
export const DEFAULT_CRAWL_SETTINGS: CrawlSettings = { maxPages: 5_000, recrawlDays: 7 };

/** How the publisher acts on the site's build (docs/publishing.md, *The site's build*). */
export const PublishingSettings = z
  .object({
    /** Commit a proposed correction of a file the site's build rejected without waiting for a person. */
    autoCorrect: z.boolean(),
  })
  .strict();
export type PublishingSettings = z.infer<typeof PublishingSettings>;

export const Settings = z
  .object({
    /** The LLM model for this project; null uses the server's default. */
    model: z.string().trim().min(1).max(100).nullable(),
    cadence: Cadence,
    covers: z.object({ enabled: z.boolean() }).strict(),
    /** The project's own monthly cap on model use, within the account's; null: none. Absent in settings stored before budgets. */
    budget: Budget.nullable().optional(),
    /** Failing quality checks only warn (default), or block approval with a 409 naming them. */
    qualityGate: z.enum(['warn', 'block']).default('warn'),
    /** Absent in settings stored before the corpus crawl: DEFAULT_CRAWL_SETTINGS. */
    crawl: CrawlSettings.optional(),
    /** The decay rules' thresholds (docs/decay.md); absent: the defaults. */
    decay: DecaySettings.partial().strict().optional(),
    /** Publishing: `autoCorrect` commits a proposed build correction at once (docs/publishing.md); absent: off. */
    publishing: PublishingSettings.optional(),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  model: null,
  cadence: {
    enabled: false,
    articlesPerWeek: 1,
    days: ['tue'],
    time: '09:00',
    timezone: 'UTC',
    minApprovedBacklog: 3,
  },
  covers: { enabled: true },
  budget: null,
  qualityGate: 'warn',
};

/** PATCH semantics: nested objects merge, so `{ cadence: { enabled: true } }` keeps the other cadence fields. */
export const SettingsPatch = z
  .object({
    model: Settings.shape.model.optional(),
    cadence: Cadence.partial().strict().optional(),
    covers: z.object({ enabled: z.boolean() }).partial().strict().optional(),
    budget: Budget.nullable().optional(),
    qualityGate: z.enum(['warn', 'block']).optional(),
    crawl: CrawlSettings.partial().strict().optional(),
    decay: DecaySettings.partial().strict().optional(),
    publishing: PublishingSettings.partial().strict().optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export function mergeSettings(current: Settings, patch: SettingsPatch): Settings {
  return {
    model: patch.model === undefined ? current.model : patch.model,
    cadence: { ...current.cadence, ...patch.cadence },
    covers: { ...current.covers, ...patch.covers },
    // Settings stored before budgets have none: left absent, so an unchanged patch changes nothing.
    ...(patch.budget !== undefined
      ? { budget: patch.budget }
      : current.budget !== undefined
        ? { budget: current.budget }
        : {}),
    // Projects created before the setting existed read as 'warn'.
    qualityGate: patch.qualityGate ?? current.qualityGate ?? 'warn',
    // Left absent until a patch names it, so settings stored before it read the same.
    ...(patch.crawl !== undefined || current.crawl !== undefined
      ? { crawl: { ...DEFAULT_CRAWL_SETTINGS, ...current.crawl, ...patch.crawl } }
      : {}),
    // Only the thresholds a user set are stored: the others follow the defaults.
    ...(patch.decay !== undefined || current.decay !== undefined
      ? { decay: { ...current.decay, ...patch.decay } }
      : {}),
    ...(patch.publishing !== undefined || current.publishing !== undefined
      ? { publishing: { autoCorrect: false, ...current.publishing, ...patch.publishing } }
      : {}),
  };
}

export type ModelConfig = Pick<Config, 'INKSTREAM_DEFAULT_MODEL' | 'INKSTREAM_ALLOWED_MODELS'>;

/** A project's model must be on the server's allow-list (null, the server's default, always is). */
export function requireAllowedModel(model: string | null | undefined, config: ModelConfig): void {
  const allowed = allowedModels(config.INKSTREAM_DEFAULT_MODEL, config.INKSTREAM_ALLOWED_MODELS);
  if (model === undefined || model === null || allowed.includes(model)) return;
  const message = `settings.model must be one of ${allowed.map((name) => `"${name}"`).join(', ')}, or null for the server's default; the operator sets the list in INKSTREAM_ALLOWED_MODELS`;
  throw new AppError('validation_failed', message, {
    details: [{ path: 'body.settings.model', message }],
  });
}
