-- POST /projects/:id/topics (the URL's path) with a unique title per request ("Bench <tag> <n>",
-- the tag passed after `--`), counting statuses and keeping the topic id of every 201.
local tag = 'run'
local sequence = 0
statuses = {}
created = {}

function init(args)
  tag = args[1] or tag
end

function request()
  sequence = sequence + 1
  return wrk.format('POST', nil, nil, string.format('{"title":"Bench %s %d","keyword":"bench"}', tag, sequence))
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 201 then table.insert(created, string.match(body, '"id":"(tpc_[0-9a-z]+)"')) end
end
