-- wrk script of the server benchmark (bench/load.ts): rotate through the request targets listed one
-- per line in the file named after `--`, and end with one JSON line of figures for the bench to read
-- instead of wrk's prose. Requests are formatted once, up front, so the script costs wrk little.
--
--   wrk -t1 -c32 -d6s -s bench/wrk-rotate.lua http://127.0.0.1:8080 -- paths.txt

local prepared = {}
local count = 0
local next_index = 0

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then
      count = count + 1
      prepared[count] = wrk.format("GET", line)
    end
  end
  if count == 0 then
    error("no request targets in " .. tostring(args[1]))
  end
end

function request()
  next_index = next_index % count + 1
  return prepared[next_index]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,"p50Us":%.0f,"p99Us":%.0f,' ..
    '"connectErrors":%.0f,"readErrors":%.0f,"writeErrors":%.0f,"non2xx3xx":%.0f,"timeouts":%.0f}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
