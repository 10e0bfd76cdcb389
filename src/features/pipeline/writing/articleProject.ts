import { articleStream } from '../../../domain/articles/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import type { Platform } from '../../../platform.ts';

/** The project of the article an event is about, for sharing slots fairly between projects. */
export function articleProjectOf(
  platform: Pick<Platform, 'eventStore'>,
): (event: StoredEvent) => Promise<string> {
  return async (event) => {
    const { state } = await loadStream(
      platform.eventStore,
      articleStream,
      String(event.data.articleId),
    );
    return state.status === 'none' ? event.stream : state.projectId;
  };
}
