// A browser form post in headless Chromium (Debian's /usr/bin/chromium, through playwright-core; no
// browser is downloaded): the demo's /upload page, a text field and a file chosen as a user would,
// submitted as multipart/form-data by Chromium itself. Prints one JSON object: what the page answered
// after the submit, and the file's size and SHA-256 as the script made it. DemoUploadBrowserTest
// asserts on it. Usage: node upload.mjs BASE_URL
import { chromium } from 'playwright-core';
import { createHash } from 'node:crypto';

const [base] = process.argv.slice(2);
const result = { consoleErrors: [] };

// 300,000 bytes: past the 64 KiB a file part keeps in memory, so the server spools it to disk.
const file = Buffer.alloc(300000);
for (let i = 0; i < file.length; i++) file[i] = (i * 31 + 7) & 0xff;
result.sentBytes = file.length;
result.sentSha256 = createHash('sha256').update(file).digest('hex');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  page.on('console', m => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
  await page.goto(base + '/upload');
  await page.fill('input[name=title]', 'Holiday café');
  await page.setInputFiles('input[name=file]', { name: 'report 2026 é.bin', mimeType: 'application/octet-stream', buffer: file });
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  result.status = (await page.evaluate(() => document.contentType));
  result.answer = JSON.parse(await page.evaluate(() => document.body.innerText));
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
