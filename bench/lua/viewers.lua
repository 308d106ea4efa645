-- Live viewers: each connection polls a table's live view every few seconds (fifth argument, ms)
-- with the revision it shows, as htmx does; a changed board (200) gives the new revision, an
-- unchanged one is a 204. Bodies are read, so run it without Accept-Encoding.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "paced.lua")

function response(status, headers, body)
  if status ~= 200 then return end
  local view, rev = body:match("/v/([%w_%-]+)/placar%?rev=(%d+)")
  if view and by_view[view] then by_view[view].rev = tonumber(rev) end
end
