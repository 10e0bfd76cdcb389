import { projectRoutes } from '../projects/api.ts';
import type { Route } from './route.ts';

/** Every endpoint of /api/v1; each feature folder contributes its own api.ts. */
export const allRoutes: readonly Route[] = [...projectRoutes];
