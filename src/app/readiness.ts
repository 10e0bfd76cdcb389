import type { Background } from './background.ts';
import { PROJECTIONS_CONSUMER } from '../consumers/projectionConsumer.ts';
import type { CheckState, Readiness } from '../http/readiness.ts';
import type { Platform } from '../platform.ts';

/**
 * Readiness for a load balancer or Kubernetes: each check says only ok or failing, as anyone who
 * can reach the port may ask; what failed, and why, goes to the log.
 */
export function createReadiness(
  platform: Pick<Platform, 'eventStore' | 'readStore' | 'logger'>,
  background: Background,
  writer?: 'model' | 'offline',
): () => Promise<Readiness> {
  const probe = async (name: string, check: () => Promise<unknown>): Promise<CheckState> => {
    try {
      await check();
      return 'ok';
    } catch (error) {
      platform.logger.warn({ err: error, check: name }, 'readiness check failing');
      return 'failing';
    }
  };
  const consumerState = (consumer: Background['consumers'][number]): CheckState => {
    const error = consumer.lastError();
    if (consumer.isRunning() && !error) return 'ok';
    platform.logger.warn(
      { consumer: consumer.name, error, running: consumer.isRunning() },
      'readiness: consumer failing',
    );
    return 'failing';
  };

  return async () => {
    const checks: Record<string, CheckState> = {
      eventStore: await probe('eventStore', () => platform.eventStore.headPosition()),
      readStore: await probe('readStore', () =>
        platform.readStore.getCheckpoint(PROJECTIONS_CONSUMER),
      ),
    };
    const sideEffects: Record<string, CheckState> = {};
    for (const consumer of background.consumers) {
      const name = `consumer:${consumer.name}`;
      if (consumer.name === PROJECTIONS_CONSUMER) checks[name] = consumerState(consumer);
      else sideEffects[name] = consumerState(consumer);
    }
    return {
      ok: Object.values(checks).every((state) => state === 'ok'),
      role: background.isLeader() ? 'leader' : 'standby',
      checks,
      background: sideEffects,
      ...(writer ? { writer } : {}),
    };
  };
}
