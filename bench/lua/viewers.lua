-- Live viewers: each connection polls a table's live view every few seconds (fifth argument, ms)
-- with the revision it shows, as htmx does; a changed board (200) gives the new revision, an
-- unchanged one is a 204. Bodies are read, so run it without Accept-Encoding.
--
-- Every viewer keeps the revision of its own screen, as a phone does: each table of the thread
-- is listed once per viewer (the connections over the tables), and a changed board brings one
-- of that table's viewers still behind up to date. So each viewer fetches each change once
-- (four viewers of a table: four fetches of every tap's board), not one per table. The viewers
-- are walked in a shuffled order (load.lua), as independent phones poll.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "paced.lua")

local paced_init = init

function init(args)
  local lines, threads = 0, tonumber(args[3] or "1")
  for _ in io.lines(args[2]) do lines = lines + 1 end
  local per_thread = math.max(1, math.ceil(lines / threads))
  copies = math.max(1, math.ceil(tonumber(args[5] or "1") / per_thread))
  shuffled = true
  paced_init(args)
end

function response(status, headers, body)
  if status ~= 200 then return end
  local view, rev = body:match("/v/([%w_%-]+)/placar%?rev=(%d+)")
  rev = tonumber(rev)
  for _, viewer in ipairs(view and by_view[view] or {}) do
    if viewer.rev < rev then
      viewer.rev = rev
      return
    end
  end
end
