import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { BlockedAddressError } from './errors.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a hostname to every address it has. Injectable so tests can point names anywhere. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveHost: ResolveHost = async (hostname) => {
  const addresses = await dns.promises.lookup(hostname, { all: true, order: 'verbatim' });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

type LookupCallback = (
  error: Error | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Judges a host by the addresses it resolved to (DestinationPolicy.refusal): null when all may be reached. */
export type JudgeAddresses = (
  hostname: string,
  resolved: readonly ResolvedAddress[],
) => BlockedAddressError | null;

/**
 * A `lookup` for net/tls.connect. The socket connects to an address this function returned, so the
 * address checked is the address used: a DNS answer cannot change between check and connect
 * (no rebinding window). Every address is checked, so one private answer among public ones fails.
 */
export function createGuardedLookup(resolveHost: ResolveHost, judge: JudgeAddresses) {
  const pick = (
    hostname: string,
    options: LookupOptions,
    resolved: ResolvedAddress[],
  ): ResolvedAddress[] => {
    const refused = judge(hostname, resolved);
    if (refused) throw refused;
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable =
      family === 4 || family === 6 ? resolved.filter((a) => a.family === family) : resolved;
    if (usable.length === 0) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
        hostname,
      });
    }
    return usable;
  };

  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveHost(hostname).then(
      (resolved) => {
        let usable: ResolvedAddress[];
        try {
          usable = pick(hostname, options, resolved);
        } catch (error) {
          callback(error as Error, '');
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}
