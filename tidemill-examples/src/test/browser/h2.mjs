// The demo over TLS + HTTP/2 in headless Chromium (Debian's /usr/bin/chromium, through playwright-core;
// no browser is downloaded). The demo's self-signed certificate is trusted by its public key's hash
// (--ignore-certificate-errors-spki-list), not by ignoring certificate errors; a second browser without
// that flag must refuse the page. Over the trusted connection: a page, an EventSource on /sse/ticks, a
// streamed response read piece by piece, each one's protocol from the Resource Timing entries, and a wss://
// WebSocket that the server tells which protocol carried it.
// Prints one JSON object; DemoH2BrowserTest asserts on it. Usage: node h2.mjs HTTPS_BASE_URL SPKI_SHA256_BASE64
import { chromium } from 'playwright-core';

const [base, spki] = process.argv.slice(2);
const result = { consoleErrors: [], failedResponses: [] };
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const launch = extra => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: [...args, ...extra],
});

// Without the key's hash: the certificate is self-signed, so the page must not load.
const untrusting = await launch([]);
try {
  await (await untrusting.newPage()).goto(base + '/hello');
  result.untrustedLoaded = true;
} catch (e) {
  result.untrustedLoaded = false;
  result.untrustedError = String(e.message || e).split('\n')[0];
} finally {
  await untrusting.close();
}

const browser = await launch([`--ignore-certificate-errors-spki-list=${spki}`]);
try {
  const page = await browser.newPage();
  // A failed response is reported with its URL below; Chromium's console line for it names none.
  page.on('console', m => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) result.consoleErrors.push(m.text());
  });
  page.on('response', r => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') result.failedResponses.push(`${r.status()} ${r.url()}`);
  });
  const response = await page.goto(base + '/hello');
  result.helloStatus = response.status();
  result.helloBody = await page.evaluate(() => document.body.innerText);
  result.security = await response.securityDetails();
  result.navigationProtocol = await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol);

  result.ticks = await page.evaluate(() => new Promise((resolve, reject) => {
    const got = [];
    const source = new EventSource('/sse/ticks?n=3&ms=100');
    source.onmessage = e => {
      got.push({ data: e.data, id: e.lastEventId });
      if (got.length === 3) { source.close(); resolve(got); }
    };
    source.onerror = () => { if (got.length < 3) { source.close(); reject(new Error('EventSource failed after ' + got.length)); } };
    setTimeout(() => reject(new Error('timeout after ' + got.length + ' events')), 15000);
  }));

  result.stream = await page.evaluate(async () => {
    const r = await fetch('/stream?n=3');
    const reader = r.body.getReader();
    const pieces = [];
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(decoder.decode(value, { stream: true }));
    }
    return { status: r.status, type: r.headers.get('content-type'), pieces, text: pieces.join('') };
  });

  // wss:// on the page's origin: Chromium opens it on the h2 connection (an extended CONNECT, RFC 8441) when the
  // server's SETTINGS enable it, else on a new HTTP/1.1 connection; the route's first message names which.
  result.webSocket = await page.evaluate(() => new Promise((resolve, reject) => {
    const seen = {};
    const ws = new WebSocket(location.origin.replace('https:', 'wss:') + '/ws/protocol');
    ws.onmessage = e => {
      if (seen.first === undefined) { seen.first = e.data; ws.send('hello over one stream'); return; }
      seen.echo = e.data;
      ws.close(1000, 'done');
    };
    ws.onclose = e => { seen.closeCode = e.code; seen.wasClean = e.wasClean; resolve(seen); };
    ws.onerror = () => reject(new Error('WebSocket failed: ' + JSON.stringify(seen)));
    setTimeout(() => reject(new Error('WebSocket timeout: ' + JSON.stringify(seen))), 15000);
  }));

  // Resource Timing entries appear once a response ends: the fetch, and the EventSource the server closed.
  await page.waitForTimeout(200);
  result.protocols = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('resource')
    .map(e => [new URL(e.name).pathname, e.nextHopProtocol])));
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
