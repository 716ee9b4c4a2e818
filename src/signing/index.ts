export { bodyHash } from './body-hash.js';
export { canonicalPayload, type CanonicalParts } from './canonical-payload.js';
export { hmacSignature } from './signature.js';
export { encodeQuery } from './query.js';
export { signRequest, type SignInput, type SignedHeaders } from './sign-request.js';
