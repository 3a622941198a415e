// Loads the demo's Swagger UI (/docs) in headless Chromium (Debian's /usr/bin/chromium, through
// playwright-core; no browser is downloaded) and reports what it lists. Prints one JSON object;
// SwaggerUiBrowserTest asserts on it. Usage: node docs.mjs BASE_URL SCREENSHOT.png
import { chromium } from 'playwright-core';

const [base, screenshot] = process.argv.slice(2);
const result = { consoleErrors: [], pageErrors: [], failedRequests: [], requests: [] };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('console', m => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
  page.on('pageerror', e => result.pageErrors.push(e.message));
  page.on('requestfailed', r => result.failedRequests.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('request', r => result.requests.push(r.url()));
  const spec = page.waitForResponse(r => new URL(r.url()).pathname === '/openapi.json', { timeout: 20000 });
  await page.goto(`${base}/docs`);
  result.specStatus = (await spec).status();
  await page.locator('.opblock').first().waitFor({ timeout: 20000 });
  result.title = await page.locator('.info .title').first().textContent();
  result.operations = await page.locator('.opblock').count();
  result.paths = await page.locator('.opblock-summary-path').evaluateAll(els => els.map(e => e.getAttribute('data-path') || e.textContent));
  result.methods = await page.locator('.opblock-summary-method').allTextContents();

  // Open one operation: its parameters and responses render from the document.
  await page.locator('#operations-users-postUsers .opblock-summary').click();
  await page.locator('#operations-users-postUsers .responses-table').first().waitFor({ timeout: 20000 });
  result.usersResponses = await page.locator('#operations-users-postUsers .responses-table .response-col_status').allTextContents();
  await page.screenshot({ path: screenshot, fullPage: false });
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
