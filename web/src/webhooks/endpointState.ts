import type { Endpoint } from './types.ts';
import { absoluteTime } from '../ui/formatTime.ts';

/** An endpoint's state in words: enabled, failing since when, or disabled and why. */
export function endpointState(endpoint: Endpoint): string {
  if (endpoint.disabled) return `Disabled: ${endpoint.disabled.detail}`;
  if (!endpoint.enabled) return 'Disabled';
  if (endpoint.failingSince) return `Failing since ${absoluteTime(endpoint.failingSince)}`;
  return 'Enabled';
}
