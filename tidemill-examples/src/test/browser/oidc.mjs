// Signs in to the demo through a real OpenID Connect provider (npm's oidc-provider, started by the
// test) in headless Chromium, as a user would: two tabs start signing in at once, each finishes at
// the provider's own pages, both end up signed in. Then the access token is refreshed by the server
// once it expires, and signing out ends the session here and at the provider. Prints one JSON
// object with what it saw; OidcLoginBrowserTest asserts on it.
// Usage: node oidc.mjs BASE_URL TOKEN_PATH WAIT_MS
import { chromium } from 'playwright-core';

const [base, tokenPath, waitMs] = process.argv.slice(2);
const result = { consoleErrors: [], pageErrors: [] };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});

const atApp = page => page.url().startsWith(base + '/');

// The provider's development pages: a login form (any name, any password), then a consent form.
async function finishAtProvider(page, name) {
  const seen = [];
  for (let step = 0; step < 6 && !atApp(page); step++) {
    if (await page.locator('input[name=login]').count() > 0) {
      seen.push('login');
      await page.fill('input[name=login]', name);
      await page.fill('input[name=password]', 'any');
      await Promise.all([page.waitForNavigation({ timeout: 15000 }), page.click('button[type=submit]')]);
    } else if (await page.locator('button[type=submit]').count() > 0) {
      seen.push('consent');
      await Promise.all([page.waitForNavigation({ timeout: 15000 }), page.click('button[type=submit]')]);
    } else {
      throw new Error(`at ${page.url()}: neither a login nor a consent form: ${(await page.content()).slice(0, 300)}`);
    }
  }
  if (!atApp(page)) throw new Error(`still at ${page.url()}`);
  return seen;
}

const getText = (page, path) => page.evaluate(async p => {
  const r = await fetch(p, { headers: { Accept: 'application/json' } });
  return { status: r.status, body: await r.text() };
}, path);

try {
  const context = await browser.newContext();
  const authorize = [];
  context.on('request', r => {
    const u = new URL(r.url());
    if (!r.url().startsWith(base) && u.pathname === '/auth') authorize.push(Object.fromEntries(u.searchParams));
  });
  const a = await context.newPage();
  const b = await context.newPage();
  for (const [p, n] of [[a, 'A'], [b, 'B']]) {
    p.on('console', m => { if (m.type() === 'error') result.consoleErrors.push(`${n}: ${m.text()}`); });
    p.on('pageerror', e => result.pageErrors.push(`${n}: ${e.message}`));
  }
  // Both tabs start before either finishes: two attempts open at once.
  await a.goto(`${base}/board`);
  await Promise.all([a.waitForNavigation(), a.click('#sign-in')]);
  await b.goto(`${base}/login?next=%2Fme`);
  result.aAtProvider = new URL(a.url()).origin;
  result.bAtProvider = new URL(b.url()).origin;
  result.authorize = [...authorize]; // what the app asked the provider for, per tab
  result.openAttempts = (await context.cookies(base)).filter(c => c.name.includes('tidemill_login_')).length;

  result.aSteps = await finishAtProvider(a, 'alice');
  result.aUrl = a.url();
  result.aWho = await a.locator('#whoami .author').textContent();
  result.bSteps = await finishAtProvider(b, 'alice');
  result.bUrl = b.url();
  result.bBody = await b.locator('body').textContent();
  // The provider's own cookies are on 127.0.0.1 too (cookies ignore ports): only the app's are kept here.
  result.cookies = (await context.cookies(base)).filter(c => c.name.includes('tidemill')).map(c => ({ name: c.name, secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite, size: c.value.length }));

  // The provider's access token expires; the next request to a guarded route refreshes it.
  result.tokenBefore = await getText(a, tokenPath);
  await new Promise(r => setTimeout(r, Number(waitMs)));
  result.tokenAfter = await getText(a, tokenPath);
  result.meAfterRefresh = await getText(a, '/me');

  // Sign out: the session ends here, then at the provider (its confirmation page), then back to /board.
  await a.goto(`${base}/board`);
  await Promise.all([a.waitForNavigation(), a.click('#sign-out')]);
  result.logoutAt = new URL(a.url()).origin + new URL(a.url()).pathname;
  if (!atApp(a)) {
    await Promise.all([a.waitForNavigation({ timeout: 15000 }), a.click('button[autofocus], button[type=submit]')]);
  }
  result.afterLogoutUrl = a.url();
  result.meAfterLogout = await getText(a, '/me');
  // Signing in again asks for a name at the provider: its session ended too.
  await a.goto(`${base}/login?next=%2Fboard`);
  result.providerAsksAgain = await a.locator('input[name=login]').count() > 0;
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
