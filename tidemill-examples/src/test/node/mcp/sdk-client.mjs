// The official TypeScript SDK's client against an MCP endpoint: lists the tools, calls each call
// given on stdin, and prints {"protocolVersion", "tools": [names], "results": [CallToolResult]} as JSON.
// usage: node sdk-client.mjs URL [AUTHORIZATION] < calls.json   (calls: [{"name", "arguments"}])
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, authorization] = process.argv.slice(2);
const calls = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (d) => (text += d));
  process.stdin.on('end', () => resolve(text || '[]'));
}));
const headers = authorization ? { Authorization: authorization } : {};
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const client = new Client({ name: 'tidemill-interop', version: '1.0.0' });
await client.connect(transport);
const sessionId = transport.sessionId ?? null;
const protocolVersion = transport.protocolVersion;
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools.map((t) => t.name));
  cursor = page.nextCursor;
} while (cursor);
const results = [];
for (const c of calls) results.push(await client.callTool({ name: c.name, arguments: c.arguments }));
await transport.terminateSession();
await client.close();
process.stdout.write(JSON.stringify({ protocolVersion, sessionId, tools, results }));
