-- bench mcp: a stateless MCP tools/call (revision 2026-07-28) on every request, one self-contained POST.
-- The URL names the endpoint (/mcp). Arguments: the tool's name and the whole JSON-RPC body (the runner
-- builds both, as its checks send them).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"

function init(args)
  wrk.headers["Mcp-Name"] = args[1]
  wrk.body = args[2]
end
