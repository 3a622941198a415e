// Drives the demo's live board in headless Chromium (Debian's /usr/bin/chromium, through
// playwright-core; no browser is downloaded). Two pages open /board; the first posts a note with
// Datastar, the second must show it, patched in over Server-Sent Events. Prints one JSON object
// with what it saw; LiveBoardBrowserTest asserts on it. Usage: node board.mjs BASE_URL SCREENSHOT.png
import { chromium } from 'playwright-core';

const [base, screenshot] = process.argv.slice(2);
const note = `hello from tab A <b>not bold</b> & "quoted" ${Date.now()}`;
const result = { consoleErrors: [], pageErrors: [], failedRequests: [] };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  // As root in a container, without a network: no sandbox, no GPU, nothing that phones home.
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const watch = (page, name) => {
    page.on('console', m => { if (m.type() === 'error') result.consoleErrors.push(`${name}: ${m.text()}`); });
    page.on('pageerror', e => result.pageErrors.push(`${name}: ${e.message}`));
    page.on('requestfailed', r => {
      // The SSE stream is aborted when the page closes: that is not a failure.
      if (!r.url().includes('/board/events')) result.failedRequests.push(`${name}: ${r.url()} ${r.failure()?.errorText}`);
    });
  };
  const a = await context.newPage();
  const b = await context.newPage();
  watch(a, 'A');
  watch(b, 'B');
  a.on('response', async r => {
    if (new URL(r.url()).pathname.match(/datastar\.[0-9a-f]+\.js$/)) {
      const h = await r.allHeaders();
      result.clientStatus = r.status();
      result.clientCacheControl = h['cache-control'];
      result.clientEncoding = h['content-encoding'] || 'identity';
    }
  });
  // Posting needs a session: tab A signs in on the development sign-in; tab B shares the context's cookie.
  await a.goto(`${base}/login?next=%2Fboard`);
  await a.fill('#name', 'Ada');
  await Promise.all([a.waitForURL(`${base}/board`), a.click('#sign-in')]);
  result.signedInAs = await a.locator('#whoami .author').textContent();
  const cookies = await context.cookies(base);
  result.sessionCookie = cookies.map(c => ({ name: c.name, secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite, path: c.path }));
  const streams = [a, b].map(p => p.waitForResponse(r => new URL(r.url()).pathname === '/board/events' && r.status() === 200, { timeout: 15000 }));
  await a.goto(`${base}/board`);
  await b.goto(`${base}/board`);
  const [ra, rb] = await Promise.all(streams);
  result.eventStreamType = rb.headers()['content-type'];
  result.scriptSrc = await a.locator('script[type=module]').getAttribute('src');

  await a.fill('#draft', note);
  await a.click('#post');

  // Page B never reloads: the note reaches it over SSE and Datastar patches #notes.
  const seen = b.locator('#notes li', { hasText: note });
  await seen.waitFor({ timeout: 15000 });
  result.bSawNote = await seen.locator('.text').textContent();
  result.bAuthor = await seen.locator('.author').textContent();
  result.bBoldElements = await b.locator('#notes b').count();
  // Page A gets the same patch over its own stream, which may arrive a moment after B's.
  await a.locator('#notes li', { hasText: note }).first().waitFor({ timeout: 15000 });
  result.aSawNote = await a.locator('#notes li', { hasText: note }).count();
  await a.waitForFunction(() => document.querySelector('#draft').value === '', null, { timeout: 15000 });
  result.aDraftCleared = true;

  // An empty note is refused with a message on the page that posted it.
  await a.fill('#draft', '   ');
  await a.click('#post');
  await a.locator('#error', { hasText: 'characters' }).waitFor({ timeout: 15000 });
  result.aError = await a.locator('#error').textContent();

  await b.screenshot({ path: screenshot, fullPage: true });
  result.screenshot = screenshot;
  result.bTitle = await b.title();
  result.bHeading = await b.locator('h1').textContent();
  result.bNotes = await b.locator('#notes li').count();
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
