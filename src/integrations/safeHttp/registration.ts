import { AppError } from '../../core/errors.ts';
import type { DestinationPolicy } from './destinationPolicy.ts';
import { SafeHttpError } from './errors.ts';

/**
 * A URL a tenant registers (a webhook, a post-publish hook, a project's website, blog or sitemap),
 * judged now as a connection would judge it: 400 naming the field when it may never be reached.
 * What the host resolved to goes to the log only (the policy's onRefused).
 */
export async function requireReachableUrl(
  destinations: DestinationPolicy,
  url: string,
  field: string,
): Promise<void> {
  try {
    await destinations.check(url);
  } catch (error) {
    if (!(error instanceof SafeHttpError)) throw error;
    throw new AppError('validation_failed', `Invalid request body: ${field}: ${error.message}`, {
      details: [{ path: `body.${field}`, message: error.message }],
    });
  }
}
