-- bench auth: a bearer token per request. Arguments: a file of tokens, one per line, and a switch time.
-- Without a switch time the tokens are sent in turn, a new one each request (the uncached case: more
-- tokens than the server's verified-token cache holds). With one (seconds since the epoch), the first
-- line is sent until then and the second after it (the key rotation: the second is signed by the new key).
local tokens = {}
local i = 0
local switch_at = nil

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then tokens[#tokens + 1] = line end
  end
  if args[2] then switch_at = tonumber(args[2]) end
end

function request()
  local t
  if switch_at then
    t = (os.time() < switch_at) and tokens[1] or tokens[2]
  else
    i = i % #tokens + 1
    t = tokens[i]
  end
  return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. t })
end
