/**
 * energy: a typed client for the Energy API v1 and its request signer. The `energy` command is a thin
 * layer over these exports.
 */
export { EnergyClient, type CreatedOrder, type ListOrdersParams, type OrderPagesParams } from './client/client.js';
export {
  Transport,
  type ApiCall,
  type ApiResult,
  type Credentials,
  type TransportOptions,
} from './client/transport.js';
export { isFinal, waitUntilFinal, type WaitOptions } from './client/wait-for-order.js';
export type { OffsetStore } from './client/clock.js';
export type * from './client/types.js';
export { bodyHash, canonicalPayload, encodeQuery, hmacSignature, signRequest } from './signing/index.js';
export type { CanonicalParts, SignInput, SignedHeaders } from './signing/index.js';
export { checkTronAddress } from './domain/address.js';
/**
 * The errors a caller catches (docs/library.md has the table). Every failed request is
 * an `EnergyError` (the class the command line calls `CliError`), whose `outcomeUncertain` says whether an
 * order may exist; the command line's exit codes are not part of the library.
 */
export {
  ApiError,
  AuthError,
  CliError as EnergyError,
  MissingCredentialsError,
  NetworkError,
  ResponseShapeError,
  UsageError,
  WaitTimeoutError,
  type ProblemDetails,
  type ProblemError,
} from './domain/errors.js';
