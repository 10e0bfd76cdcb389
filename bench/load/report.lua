-- Prints one line `WRK_RESULT {json}` when wrk finishes: counts, latency percentiles (µs) and,
-- from every thread, the globals `statuses` and `created` if the request part keeps them.
local threads = {}
function setup(thread) table.insert(threads, thread) end

local function object(counts)
  local parts = {}
  for key, count in pairs(counts) do table.insert(parts, string.format('"%s":%d', key, count)) end
  return '{' .. table.concat(parts, ',') .. '}'
end

function done(summary, latency, requests)
  local statuses, created = {}, {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get('statuses') or {}) do statuses[status] = (statuses[status] or 0) + count end
    for _, id in ipairs(thread:get('created') or {}) do table.insert(created, '"' .. id .. '"') end
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d},"statuses":%s,"created":[%s]}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    object(statuses), table.concat(created, ',')))
end
