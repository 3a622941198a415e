-- Scenario 6: browser-shaped mix. Per 10 requests: 4 GET /page, 3 GET /user/{id}, 2 GET /json,
-- 1 POST /validate, every one with the header set Chrome sends, cookies included (GET /page is
-- 1,094 bytes on the wire: measured 2026-12-01 by a script that dofile()s this one, calls init
-- and prints #request(), run as wrk -t1 -c1 -d1s -s that-script URL).
-- Without arguments (scenario "mix") no Accept-Encoding is sent, so every server answers identity
-- and the mix compares servers, not compressors. With the argument "accept-encoding" (scenario
-- "browser-mix": wrk ... -s mix.lua URL -- accept-encoding) Chrome's own
-- "Accept-Encoding: gzip, deflate, br, zstd" goes with every request, as a browser sends it.
-- done() prints the bytes wrk read ("wire bytes: N": heads and bodies as they came off the socket),
-- from which the runner reports bytes per response.
-- Requests are pre-formatted in init so that wrk's Lua costs as little as possible per request.
local chrome = {
  ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  ["Accept"] = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
  ["Accept-Language"] = "en-GB,en-US;q=0.9,en;q=0.8,de;q=0.7",
  ["Cache-Control"] = "max-age=0",
  ["sec-ch-ua"] = '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  ["sec-ch-ua-mobile"] = "?0",
  ["sec-ch-ua-platform"] = '"Linux"',
  ["Sec-Fetch-Dest"] = "document",
  ["Sec-Fetch-Mode"] = "navigate",
  ["Sec-Fetch-Site"] = "same-origin",
  ["Sec-Fetch-User"] = "?1",
  ["Upgrade-Insecure-Requests"] = "1",
  ["Referer"] = "http://127.0.0.1/users",
  ["Cookie"] = "session=eyJ1c2VyIjo0MiwibmFtZSI6IkFkYSIsInJvbGUiOiJhZG1pbiIsImV4cCI6MTc2NDUwMDAwMH0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU; "
    .. "csrftoken=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG87; _ga=GA1.1.1234567890.1764400000; "
    .. "_ga_ABCDEF1234=GS1.1.1764400000.3.1.1764400100.0.0.0; theme=dark; lang=en-GB; "
    .. "consent=analytics%3Dtrue%26marketing%3Dfalse; tz=Europe%2FLondon"
}

local function headers(extra)
  local h = {}
  for k, v in pairs(chrome) do h[k] = v end
  if extra then for k, v in pairs(extra) do h[k] = v end end
  return h
end

local cycle = {}
local n = 0

init = function(args)
  if args[1] == "accept-encoding" then chrome["Accept-Encoding"] = "gzip, deflate, br, zstd" end
  local post = '{"name":"Ada","age":42}'
  for block = 0, 9 do
    local base = block * 10
    local function user(i) return "/user/" .. (base + i + 1) end
    local order = {
      wrk.format("GET", "/page", headers()),
      wrk.format("GET", user(1), headers({ Accept = "application/json" })),
      wrk.format("GET", "/json", headers({ Accept = "application/json" })),
      wrk.format("GET", "/page", headers()),
      wrk.format("GET", user(2), headers({ Accept = "application/json" })),
      wrk.format("POST", "/validate", headers({ Accept = "application/json", ["Content-Type"] = "application/json" }), post),
      wrk.format("GET", "/page", headers()),
      wrk.format("GET", user(3), headers({ Accept = "application/json" })),
      wrk.format("GET", "/json", headers({ Accept = "application/json" })),
      wrk.format("GET", "/page", headers()),
    }
    for _, r in ipairs(order) do cycle[#cycle + 1] = r end
  end
end

request = function()
  n = n % #cycle + 1
  return cycle[n]
end

done = function(summary, latency, requests)
  io.write(string.format("wire bytes: %d\n", summary.bytes))
end
