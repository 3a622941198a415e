// A local OpenID Connect provider for development and tests: npm's oidc-provider with one client
// and its development sign-in (any name, any password), on 127.0.0.1 only.
//
//   node idp.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI POST_LOGOUT_REDIRECT_URI [ACCESS_TOKEN_SECONDS]
//
// Prints one JSON line when it listens: {"issuer": "http://127.0.0.1:PORT"}. Development only: its
// signing key is made at start, its cookies' keys too, and it keeps everything in memory.
import Provider from 'oidc-provider';
import { generateKeyPair, exportJWK } from 'jose';
import { randomBytes } from 'node:crypto';

const [port, clientId, clientSecret, redirectUri, postLogoutUri, accessSeconds] = process.argv.slice(2);
if (!postLogoutUri) {
  console.error('usage: node idp.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI POST_LOGOUT_REDIRECT_URI [ACCESS_TOKEN_SECONDS]');
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signing = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [postLogoutUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  jwks: { keys: [signing] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  pkce: { required: () => true },
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  ttl: { AccessToken: Number(accessSeconds || 3600), IdToken: 3600, Grant: 3600, Session: 3600, Interaction: 600,
    RefreshToken: 86400, AuthorizationCode: 60 },
  // A refresh token with every sign-in, so the relying party can show it refreshes (offline_access needs a consent prompt).
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  findAccount: async (ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, name: id, email: `${id}@example.test` }),
  }),
  renderError: async (ctx, out) => { ctx.type = 'text/plain'; ctx.body = `error: ${out.error}: ${out.error_description || ''}`; },
});
provider.listen(Number(port), '127.0.0.1', () => console.log(JSON.stringify({ issuer })));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
