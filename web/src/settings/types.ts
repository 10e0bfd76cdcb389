import type { components, operations } from '../api/v1.ts';

export type Project = components['schemas']['Project'];
export type Settings = Project['settings'];
export type ProjectUpdate = operations['patchProjectsId']['requestBody'] extends
  | { content: { 'application/json': infer Body } }
  | undefined
  ? Body
  : never;
