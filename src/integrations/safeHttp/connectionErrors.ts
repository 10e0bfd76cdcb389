import {
  BlockedAddressError,
  HttpConnectionError,
  HttpTimeoutError,
  SafeHttpError,
} from './errors.ts';

const tlsCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'EPROTO',
]);

const codeOf = (error: unknown): string | undefined => {
  for (
    let current = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
  }
  return (error as { code?: string } | undefined)?.code;
};

/** Turns whatever undici, net, tls or zlib threw into one of our errors, with advice. */
export function toSafeHttpError(error: unknown, url: URL, timeoutMs: number): SafeHttpError {
  if (error instanceof BlockedAddressError && error.url === '') {
    return new BlockedAddressError(url.href, {
      hostname: error.hostname,
      address: error.address,
      range: error.range,
    });
  }
  if (error instanceof SafeHttpError) return error;
  const code = codeOf(error);
  const host = url.host;
  const fail = (reason: HttpConnectionError['reason'], message: string) =>
    new HttpConnectionError(url.href, reason, message, { code, cause: error });

  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT'
  ) {
    return new HttpTimeoutError(url.href, timeoutMs, { cause: error });
  }
  if (
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EAI_NODATA' ||
    code === 'EAI_NONAME'
  ) {
    return fail(
      'dns',
      `Could not resolve the host name ${url.hostname} (${code}). Check the spelling of the domain and its DNS records.`,
    );
  }
  if (code === 'ECONNREFUSED') {
    return fail(
      'refused',
      `${host} refused the connection. Check that the server is running and accepts connections on that port.`,
    );
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return fail(
      'refused',
      `${host} is unreachable from this server (${code}). Check the address and the network.`,
    );
  }
  if (
    code &&
    (tlsCodes.has(code) ||
      code.startsWith('ERR_TLS') ||
      code.startsWith('ERR_SSL') ||
      code.startsWith('CERT_'))
  ) {
    return fail(
      'tls',
      `The TLS certificate of ${host} could not be verified (${code}). Use a certificate from a public ` +
        'certificate authority, or trust your own CA with NODE_EXTRA_CA_CERTS.',
    );
  }
  if (
    code &&
    (code.startsWith('HPE_') ||
      code.startsWith('Z_') ||
      code.startsWith('ERR__') ||
      code === 'UND_ERR_INFO')
  ) {
    return fail('protocol', `${host} sent a malformed HTTP response (${code}).`);
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_CLOSED'
  ) {
    return fail(
      'reset',
      `${host} closed the connection before the response was complete. Try again later.`,
    );
  }
  // The raw message may name the address a host resolved to; it stays on `cause`, for the log.
  return fail(
    'other',
    `Request to ${url.href} failed: ${host} could not be reached${code ? ` (${code})` : ''}.`,
  );
}
