-- load.lua with a pause between requests on each connection. Arguments after the three of
-- load.lua: the mean pause in milliseconds and the number of connections per thread.
-- Each connection's first pause is a random phase in [0, pause), the next ones are random in
-- [pause/2, 3*pause/2]: the connections' requests spread out as real phones' polls do instead of
-- all firing together.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "load.lua")

local load_init = init
local pause, first_pauses = 0, 0

function init(args)
  load_init(args)
  pause = tonumber(args[4] or "0")
  first_pauses = tonumber(args[5] or "0")
end

function delay()
  if first_pauses > 0 then
    first_pauses = first_pauses - 1
    return math.random(0, pause)
  end
  local half = math.floor(pause / 2)
  return math.random(pause - half, pause + half)
end
