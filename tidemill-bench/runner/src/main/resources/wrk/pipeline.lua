-- Scenario 8: plaintext pipelined N deep (N = first script argument), as in TechEmpower's
-- plaintext test: every write carries N requests, so the server, not wrk, becomes the bottleneck.
init = function(args)
  local depth = tonumber(args[1]) or 16
  local r = {}
  for i = 1, depth do r[i] = wrk.format() end
  req = table.concat(r)
end

request = function()
  return req
end
