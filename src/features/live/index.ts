import type { Feature } from '../feature.ts';
import type { Platform } from '../../platform.ts';
import { liveRoute } from './api.ts';
import { liveHub } from './hub.ts';

/** The live stream of the account's changes (GET /api/v1/live, docs/live.md). */
export const liveFeature: Feature = {
  name: 'live',
  routes: [liveRoute],
  projections: [],
};

/** Ends every open live stream of the platform: a stopping server would otherwise wait for them. */
export const endLiveStreams = (platform: Pick<Platform, 'eventStore'>): void =>
  liveHub(platform).endAll();
