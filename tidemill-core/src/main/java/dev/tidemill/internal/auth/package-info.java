/**
 * Who is calling: the credentials of a request (a bearer token, a TLS client certificate) turned
 * into a {@link dev.tidemill.Principal} and checked against the route's
 * {@link dev.tidemill.Requirement}. Uses only the public API and, for bearer tokens, nimbus-jose-jwt
 * (in {@code JwtVerifier} and {@code KeyRing} alone, loaded only when bearer tokens are configured);
 * the exchange package turns an {@link dev.tidemill.internal.auth.Outcome} into its verdict.
 */
package dev.tidemill.internal.auth;
