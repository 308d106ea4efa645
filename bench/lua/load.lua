-- Tento's wrk load script. Arguments after `--`: mode, tables file, thread count.
-- Modes: bare, tap, tap_write, write_floor, poll_unchanged, poll_changed, board. Headers (cookie,
-- CSRF, htmx, encoding) come from wrk's -H options. Each wrk thread owns every n-th line of the
-- tables file ("edit view revision"), walks its slice round-robin and, for taps, keeps each table's
-- revision: a slice is far longer than the thread's connections, so a table's previous tap has
-- always been answered before its next one, and every tap is legal and current (no 409, no 422).

local counter = 0
local taps = 0
local mode, tables, position = "bare", {}, 0
local verifying = false
-- Client ids are unique across wrk runs: run.py gives each run its own number (TENTO_RUN, 8 hex
-- digits). A tap sent again with an id already journaled for its table would be answered as a
-- retry (the board, no write), and every round after the first would measure no tap at all.
local run = tonumber(os.getenv("TENTO_RUN") or "", 16) or os.time() % 0x100000000

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  mode = args[1] or "bare"
  local file, threads = args[2], tonumber(args[3] or "1")
  if file and file ~= "-" then
    local i = 0
    for line in io.lines(file) do
      local edit, view, rev = line:match("^(%S+) (%S+) (%d+)$")
      if edit and i % threads == id then
        -- viewers.lua sets `copies`, the viewers of each table: one entry (and revision) each
        for _ = 1, copies or 1 do
          tables[#tables + 1] = { edit = edit, view = view, rev = tonumber(rev) }
        end
      end
      i = i + 1
    end
  end
  -- viewers.lua sets `shuffled`: phones poll at phases of their own, in no order related to the
  -- tables'. Walked in the tables file's order (the order the tapper walks too), the viewers
  -- would meet the tables tapped in the last cycle all together: one wave of changed boards
  -- each cycle instead of a steady trickle.
  if shuffled then
    math.randomseed(run + id)
    for i = #tables, 2, -1 do
      local j = math.random(i)
      tables[i], tables[j] = tables[j], tables[i]
    end
  end
  by_view = {}
  for _, t in ipairs(tables) do
    by_view[t.view] = by_view[t.view] or {}
    table.insert(by_view[t.view], t)
  end
  -- wrk calls request() once on the first thread to check it, and never sends that request:
  -- answer that call with a harmless one so that no table's revision runs ahead.
  verifying = (id == 0)
end

local function next_table()
  position = position % #tables + 1
  return tables[position]
end

-- Alternate +1 for each side up to 8 x 8, then void hands: never a mão de onze, never a winner.
local function tap_code(rev)
  if rev < 16 then return "normal:" .. (rev % 2) .. ":1" end
  return "anulada"
end

function request()
  if verifying then
    verifying = false
    return wrk.format("GET", "/_bench/bare")
  end
  if mode == "bare" then
    return wrk.format("GET", "/_bench/bare")
  end
  local t = next_table()
  if mode == "tap" or mode == "tap_write" then
    -- every tap carries a client-made id, as the board's script sends it (journaled per write)
    taps = taps + 1
    local cid = string.format("%08x-%04x-4000-8000-%012x", run, id, taps)
    local body = "rev=" .. t.rev .. "&o=" .. tap_code(t.rev) .. "&cid=" .. cid
    t.rev = t.rev + 1
    if mode == "tap_write" then
      return wrk.format("POST", "/_bench/tap/" .. t.edit, nil, body)
    end
    return wrk.format("POST", "/m/" .. t.edit .. "/marcar", nil, body)
  elseif mode == "write_floor" then
    local body = "rev=" .. t.rev
    t.rev = t.rev + 1
    return wrk.format("POST", "/_bench/write/" .. t.edit, nil, body)
  elseif mode == "poll_unchanged" then
    return wrk.format("GET", "/v/" .. t.view .. "/placar?rev=" .. t.rev)
  elseif mode == "poll_changed" then
    return wrk.format("GET", "/v/" .. t.view .. "/placar?rev=" .. (t.rev - 1))
  elseif mode == "board" then
    return wrk.format("GET", "/m/" .. t.edit)
  end
  error("unknown mode " .. mode)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"latency_us": {"mean": %.1f, "p50": %d, "p90": %d, "p99": %d, "max": %d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max))
end
