/**
 * mcp-edge's authorization API: the resource-server options (`createMcpEdge(server, { auth })`),
 * the token verifiers, the principal handlers see, and the built-in authorization server.
 */
export type { AuthOptions, DpopCheck, DpopProofResult, TokenVerifier, VerifiedToken, VerifyContext } from "./options";
export { TokenError } from "./options";
export type { Principal } from "./principal";
export { jwtVerifier, DEFAULT_JWT_ALGORITHMS, type JwtVerifierOptions } from "./jwt";
export {
  dpopVerifier,
  memoryReplayStore,
  DEFAULT_DPOP_ALGORITHMS,
  type DpopVerifierOptions,
  type DpopReplayStore,
} from "./dpop";
export { DpopReplayObject, durableReplayStore } from "./dpop-replay";
export { introspectionVerifier, type IntrospectionVerifierOptions } from "./introspection";
export { canonicalResource } from "./canonical";
export type { ClientIdMetadataOptions } from "./client-metadata";
export {
  createAuthorizationServer,
  withAuthorizationServer,
  AUTHORIZE_PATH,
  TOKEN_PATH,
  REGISTER_PATH,
  type AuthorizationServerOptions,
  type AuthorizationServerEnv,
  type AuthorizeHandler,
  type BuiltinAuthorizationServer,
} from "./builtin-server";
export {
  defineUpstream,
  Upstream,
  UpstreamSignInRequired,
  type UpstreamOptions,
  type UpstreamIdentity,
  type UpstreamCaller,
  type EnvSetting,
} from "./upstream";
export { perOrigin, type PerOriginOptions } from "./per-origin";
