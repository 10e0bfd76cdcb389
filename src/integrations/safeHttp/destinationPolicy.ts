import { isIP } from 'node:net';
import { createAddressPolicy, type AddressPolicy } from './addressPolicy.ts';
import { BlockedAddressError } from './errors.ts';
import { systemResolveHost, type ResolveHost, type ResolvedAddress } from './guardedLookup.ts';
import { parseRequestUrl } from './urlPolicy.ts';

/**
 * Which destinations Inkstream sends to, decided in one place for both moments a URL is judged:
 * when a tenant registers it (a webhook, a post-publish hook, a project's site) and when a
 * connection is made. Both resolve the host and judge every address alike, so no spelling of a
 * private host (localhost, 127.1, 0x7f000001, [::1], ::ffff:127.0.0.1, a name pointing at 10.x)
 * is accepted at one moment and refused at the other.
 */
export type DestinationPolicy = {
  readonly addresses: AddressPolicy;
  readonly resolveHost: ResolveHost;
  /** The refusal for a host and the addresses it resolved to, or null when every one may be reached. */
  refusal(hostname: string, resolved: readonly ResolvedAddress[]): BlockedAddressError | null;
  /**
   * The registration check: the URL as the client would parse it, its host resolved and judged.
   * A name that does not resolve (yet), or not in time, passes: it is judged again at every connection.
   */
  check(url: string | URL): Promise<URL>;
};

export type DestinationPolicyOptions = {
  /** INKSTREAM_ALLOW_PRIVATE_URLS=1: local development and tests only. */
  allowPrivateAddresses?: boolean;
  /** CIDRs that stay reachable while every other private range is refused, e.g. ['10.1.2.3/32']. */
  allowedRanges?: readonly string[];
  resolveHost?: ResolveHost;
  /** How long a registration waits for DNS before accepting the name as not resolvable yet. */
  resolveTimeoutMs?: number;
  /** Told of every refusal with what the host resolved to: for the operator's log, never for the tenant. */
  onRefused?: (detail: { hostname: string; address: string; range: string }) => void;
};

/** RFC 6761: localhost and every name under it are loopback, whatever a resolver says. */
const isLocalhostName = (hostname: string): boolean => /(^|\.)localhost\.?$/i.test(hostname);
const LOOPBACK: ResolvedAddress = { address: '127.0.0.1', family: 4 };

export function createDestinationPolicy(options: DestinationPolicyOptions = {}): DestinationPolicy {
  const addresses = createAddressPolicy({
    allowPrivateAddresses: options.allowPrivateAddresses,
    allowedRanges: options.allowedRanges,
  });
  const resolveHost = options.resolveHost ?? systemResolveHost;
  const resolveTimeoutMs = options.resolveTimeoutMs ?? 3_000;

  const refusal = (
    hostname: string,
    resolved: readonly ResolvedAddress[],
  ): BlockedAddressError | null => {
    const judged = isLocalhostName(hostname) ? [LOOPBACK, ...resolved] : resolved;
    for (const { address } of judged) {
      const range = addresses.blockedRange(address);
      if (!range) continue;
      options.onRefused?.({ hostname, address, range });
      // The URL is not known here; the client fills it in (see toSafeHttpError).
      return new BlockedAddressError('', { hostname, address, range });
    }
    return null;
  };

  const resolveInTime = async (hostname: string): Promise<ResolvedAddress[]> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ResolvedAddress[]>((resolve) => {
      timer = setTimeout(() => resolve([]), resolveTimeoutMs);
    });
    try {
      return await Promise.race([resolveHost(hostname).catch(() => []), late]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    addresses,
    resolveHost,
    refusal,
    async check(input) {
      const url = parseRequestUrl(input, addresses);
      if (options.allowPrivateAddresses) return url;
      const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(hostname)) return url; // judged by parseRequestUrl
      const refused = refusal(hostname, await resolveInTime(hostname));
      if (refused) throw new BlockedAddressError(url.href, refused);
      return url;
    },
  };
}
