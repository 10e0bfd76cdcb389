import { articleStream } from '../../../domain/articles/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import type { Services } from '../../../app/platform.ts';

/** The project of the article an event is about, for sharing slots fairly between projects. */
export function articleProjectOf(services: Pick<Services, 'eventStore'>): (event: StoredEvent) => Promise<string> {
  return async (event) => {
    const { state } = await loadStream(services.eventStore, articleStream, String(event.data.articleId));
    return state.status === 'none' ? event.stream : state.projectId;
  };
}
