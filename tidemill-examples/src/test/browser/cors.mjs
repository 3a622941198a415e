// Cross-origin fetches in headless Chromium (Debian's /usr/bin/chromium, through playwright-core;
// no browser is downloaded). The page comes from one origin (PAGE_URL) and fetches from another
// (API_URL, another port, so another origin): what the script could read, and what Chromium blocked.
// Prints one JSON object; CorsBrowserTest asserts on it. Usage: node cors.mjs PAGE_URL API_URL
import { chromium } from 'playwright-core';

const [pageUrl, api] = process.argv.slice(2);
const result = { consoleErrors: [] };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  page.on('console', m => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
  await page.goto(pageUrl);
  result.pageOrigin = await page.evaluate(() => location.origin);
  result.fetches = await page.evaluate(async (api) => {
    const attempt = async (name, path, init) => {
      try {
        const r = await fetch(api + path, init);
        return { name, ok: true, status: r.status, body: await r.text(), cost: r.headers.get('X-Request-Cost') };
      } catch (e) {
        return { name, ok: false, error: String(e) };
      }
    };
    return [
      await attempt('allowed GET', '/api/greeting', {}),
      await attempt('allowed preflighted PUT', '/api/greeting', { method: 'PUT', headers: { 'X-Token': 't', 'Content-Type': 'application/json' }, body: '{}' }),
      await attempt('refused method (preflight)', '/api/greeting', { method: 'DELETE' }),
      await attempt('other origin only', '/partner/greeting', {}),
      await attempt('server 404 readable', '/api/missing', {}),
    ];
  }, api);
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
