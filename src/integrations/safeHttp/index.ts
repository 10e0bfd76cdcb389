export {
  createSafeHttpClient,
  DEFAULT_USER_AGENT,
  type SafeHttpClient,
  type SafeHttpClientOptions,
  type SafeRequestOptions,
  type SafeResponse,
} from './client.ts';
export {
  SafeHttpError,
  InvalidUrlError,
  BlockedAddressError,
  HttpTimeoutError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  HttpConnectionError,
  isSafeHttpError,
  type SafeHttpErrorKind,
  type ConnectionFailure,
} from './errors.ts';
export { createAddressPolicy, type AddressPolicy } from './addressPolicy.ts';
export {
  createDestinationPolicy,
  type DestinationPolicy,
  type DestinationPolicyOptions,
} from './destinationPolicy.ts';
export { parseRequestUrl } from './urlPolicy.ts';
export { systemResolveHost, type ResolveHost, type ResolvedAddress } from './guardedLookup.ts';
export type { TooLargePolicy } from './readBody.ts';
