import { ARTICLE_NAMES, type ArticleNameDoc } from '../../../projections/articleNames.ts';
import { ARTICLE_CATEGORY } from '../../domain/articles/article.ts';
import { indexPages, type PageIndex } from '../../integrations/llm/topicDedupe.ts';
import type { Platform } from '../../platform.ts';

/** The newest published articles a hand-added topic is compared with. */
export const PUBLISHED_COMPARED = 200;
/** Beyond this many projects the remembered names start over. */
export const PROJECTS_NAMES_REMEMBERED = 1_000;
/** The events that change what articleNames holds of a published article, or publish one. */
const NAME_CHANGES = new Set(['ArticleDrafted', 'ArticlePullRequestOpened', 'ArticleMerged']);
/** Article events looked through at once; more than this since the last look forgets every project. */
const CHECK_BATCH = 1_000;

export type PublishedPage = { url: string; title: string; article: ArticleNameDoc };
export type PublishedNames = {
  index(projectId: string, head: bigint): Promise<PageIndex<PublishedPage>>;
};

type NamesPlatform = Pick<Platform, 'readStore' | 'readModels' | 'tail' | 'config'>;
const byPlatform = new WeakMap<NamesPlatform, PublishedNames>();
export const publishedNamesOf = (platform: NamesPlatform): PublishedNames => {
  let names = byPlatform.get(platform);
  if (!names) byPlatform.set(platform, (names = createPublishedNames(platform)));
  return names;
};

/**
 * The names of each project's newest published articles, indexed by their words, remembered
 * between POSTs of topics: reading and tokenising up to 200 of them on every POST made adding a
 * topic cost more as a project published. A project's names are read again only after an event
 * that could change them, found in the log (any process's appends) up to the request's head
 * before remembered names are used, as the API key cache does: a merge forgets its article's
 * project (it publishes an article, or moves one to the newest), found in the batch's ArticleQueued
 * events or else in articleNames, and every project when neither knows it yet; a draft or pull
 * request of a remembered article forgets its project (a refresh renames it). A name changed by any
 * other article cannot matter: it is unpublished, or older than the newest 200 and stays so until merged.
 */
export function createPublishedNames(platform: NamesPlatform): PublishedNames {
  const byProject = new Map<string, PageIndex<PublishedPage>>();
  const projectOfArticle = new Map<string, string>();
  let generation = 0; // moves on every name change seen: names read before one must not be remembered
  let checkedThrough = -1n;
  let looked = false;
  let checking: Promise<void> | null = null;

  function forget(projectId: string | undefined): void {
    if (projectId === undefined) return;
    for (const { page } of byProject.get(projectId)?.pages ?? [])
      projectOfArticle.delete(page.article.id);
    byProject.delete(projectId);
  }

  function forgetAll(): void {
    byProject.clear();
    projectOfArticle.clear();
  }

  /**
   * Forgets the projects of these merged articles, known from the remembered names, the batch's
   * ArticleQueued events or articleNames; every project when one's is not known (its read model behind).
   */
  async function forgetProjectsOf(
    articleIds: readonly string[],
    queuedNow: ReadonlyMap<string, string>,
    through: bigint,
  ): Promise<void> {
    const projects = new Map(
      articleIds.map((id) => [id, projectOfArticle.get(id) ?? queuedNow.get(id)]),
    );
    const unknown = [...projects]
      .filter(([, projectId]) => projectId === undefined)
      .map(([id]) => id);
    if (unknown.length > 0) {
      // An article is queued before it merges: read models that reached the merge hold it.
      await platform.readModels.catchUp(platform.config.INKSTREAM_READ_WAIT_MS, through);
      for (const { id, projectId } of await platform.readStore.getMany<ArticleNameDoc>(
        ARTICLE_NAMES,
        unknown,
      ))
        projects.set(id, projectId);
    }
    if ([...projects.values()].includes(undefined)) return forgetAll();
    for (const projectId of projects.values()) forget(projectId);
  }

  async function checkNameChanges(head: bigint): Promise<void> {
    // At the first look nothing is remembered, and no read has begun that a change could spoil.
    if (!looked) {
      looked = true;
      checkedThrough = head;
    }
    while (checkedThrough < head) {
      if (checking) {
        await checking;
        continue;
      }
      checking = (async () => {
        const from = checkedThrough;
        let read = await platform.tail.read(from, [ARTICLE_CATEGORY], CHECK_BATCH, false);
        // Not this far yet: another process appended what the tail has not been told of.
        if (read.through < head)
          read = await platform.tail.read(from, [ARTICLE_CATEGORY], CHECK_BATCH, true);
        let reached = read.through;
        if (read.events.length === CHECK_BATCH || read.through < head) {
          // Far behind (no topic added for a long while): forgetting everything costs less than reading on.
          forgetAll();
          generation++;
          reached = head;
        } else {
          const merged: string[] = [];
          const queuedNow = new Map<string, string>();
          for (const event of read.events) {
            if (event.type === 'ArticleQueued')
              queuedNow.set(String(event.data.articleId), String(event.data.projectId));
            if (!NAME_CHANGES.has(event.type)) continue;
            generation++;
            if (event.type === 'ArticleMerged') merged.push(String(event.data.articleId));
            else forget(projectOfArticle.get(String(event.data.articleId)));
          }
          await forgetProjectsOf(merged, queuedNow, read.through);
        }
        if (checkedThrough === from) checkedThrough = reached;
      })().finally(() => {
        checking = null;
      });
      await checking;
    }
  }

  async function read(
    projectId: string,
  ): Promise<{ index: PageIndex<PublishedPage>; current: boolean }> {
    const generationRead = generation;
    // Every change checked so far must be in what is read, or the next check would not forget it.
    const current = await platform.readModels.catchUp(
      platform.config.INKSTREAM_READ_WAIT_MS,
      checkedThrough,
    );
    const published = await platform.readStore.find<ArticleNameDoc>(ARTICLE_NAMES, {
      filter: { projectId, published: true },
      sort: { field: 'publishedAt', direction: 'desc' },
      limit: PUBLISHED_COMPARED,
    });
    const index = indexPages(
      published.items.map((article) => ({
        url: article.path ?? article.slug ?? '',
        title: article.title,
        article,
      })),
    );
    return { index, current: current && generation === generationRead };
  }

  return {
    async index(projectId, head) {
      await checkNameChanges(head);
      const remembered = byProject.get(projectId);
      if (remembered) return remembered;
      const { index, current } = await read(projectId);
      if (current) {
        if (byProject.size >= PROJECTS_NAMES_REMEMBERED) forgetAll();
        byProject.set(projectId, index);
        for (const { page } of index.pages) projectOfArticle.set(page.article.id, projectId);
      }
      return index;
    },
  };
}
