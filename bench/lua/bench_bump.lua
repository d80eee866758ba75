-- bench_bump.lua: shove.bump against a bump-style pure-Lua world
-- (bump_reference.lua) on bump's typical use: a map of unit tiles and 2,000
-- movers of 0.6 x 0.6 with random velocities, every mover moved once per
-- frame with the default filter ('slide'). Prints time and garbage per
-- world:move for both, checks that both end with the same positions, and
-- times the other calls of the API.
--
-- Usage (from the build tree):
--   SHOVE_LIBRARY=build/lua/libshove.so \
--   LUA_PATH='lua/?.lua;build/lua/?.lua;bench/lua/?.lua;;' \
--   luajit bench/lua/bench_bump.lua [frames] [cellSize] [fall]
--
-- With `fall` (tiles a frame, say 0.2) the movers fall as a platformer's
-- do instead of moving by their vertical velocity: after 40 frames to
-- land, most moves end resting on a tile, a collision each, and only the
-- sideways velocity reflects.
--
-- With BUMP_LUA=path/to/bump.lua set (bump.lua itself, which this
-- repository does not ship), it is timed in the same run as well.
local bump = require('shove.bump')
local ref = require('bump_reference')

local FRAMES = tonumber(arg and arg[1]) or 30
local CELL = tonumber(arg and arg[2]) or 2
local FALL = tonumber(arg and arg[3]) or 0
local WARMUP = FALL > 0 and 40 or 2 -- frames before the measured ones
local MAP = 128     -- tiles per side
local MOVERS = 2000
local SIZE = 0.6
local SPEED = 0.25  -- largest velocity component, tiles per frame

-- A small generator of our own, so both worlds see the same numbers.
local function rng(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  end
end

-- The scene: a border of tiles, a sprinkling of solid tiles inside, movers
-- on free tiles.
local function scene(seed)
  local r = rng(seed)
  local solid, tiles = {}, {}
  for y = 0, MAP - 1 do
    for x = 0, MAP - 1 do
      local border = x == 0 or y == 0 or x == MAP - 1 or y == MAP - 1
      if border or r() < 0.12 then
        solid[y * MAP + x] = true
        tiles[#tiles + 1] = { x, y }
      end
    end
  end
  local movers = {}
  while #movers < MOVERS do
    local x, y = 1 + floor(r() * (MAP - 2)), 1 + floor(r() * (MAP - 2))
    if not solid[y * MAP + x] then
      solid[y * MAP + x] = true -- one mover per tile
      movers[#movers + 1] = {
        x = x + 0.2, y = y + 0.2,
        vx = (r() * 2 - 1) * SPEED, vy = (r() * 2 - 1) * SPEED,
      }
    end
  end
  return tiles, movers
end

local function build(lib, tiles, movers)
  local world = lib.newWorld(CELL)
  for i, t in ipairs(tiles) do world:add('tile' .. i, t[1], t[2], 1, 1) end
  local items = {}
  for i, m in ipairs(movers) do
    local item = { vx = m.vx, vy = m.vy }
    items[i] = item
    world:add(item, m.x, m.y, SIZE, SIZE)
  end
  return world, items
end

-- One frame: every mover moves by its velocity (or falls by `fall`, when
-- that is above 0, and moves sideways by its velocity); a blocked one takes
-- the reflection of its velocity along the normal it met. Each run gets its
-- own copy of this code (newFrame): LuaJIT keeps its compiled traces with
-- the code, and a copy shared with the library timed before would run the
-- next one through side traces of the first one's trace.
local FRAME_SOURCE = [[
return function(world, items, fall)
  local collisions = 0
  for i = 1, #items do
    local item = items[i]
    local x, y = world:getRect(item)
    local _, _, cols, len = world:move(item, x + item.vx, y + (fall > 0 and fall or item.vy))
    if len > 0 then
      collisions = collisions + len
      local n = cols[1].normal
      if n.x ~= 0 then item.vx = -item.vx end
      if n.y ~= 0 and fall == 0 then item.vy = -item.vy end
    end
  end
  return collisions
end
]]
local function newFrame()
  return assert(loadstring(FRAME_SOURCE, '=frame'))()
end

-- Runs `step` (one frame; returns its collisions) WARMUP times to warm up
-- (and let the JIT compile), then FRAMES times with the collector stopped:
-- time, garbage and collisions per move. With `running`, the collector
-- runs as it does in a game (in steps, paid for by the allocations), so
-- the time includes collecting the moves' garbage; bytes are then not
-- counted.
local function measure(name, world, items, step, running)
  for _ = 1, WARMUP do step() end
  collectgarbage('collect')
  if not running then collectgarbage('stop') end
  local before = collectgarbage('count')
  local t0 = os.clock()
  local collisions = 0
  for _ = 1, FRAMES do collisions = collisions + step() end
  local seconds = os.clock() - t0
  local kib = collectgarbage('count') - before
  collectgarbage('restart')
  local moves = FRAMES * #items
  return {
    name = name, world = world, items = items,
    ns = seconds * 1e9 / moves, bytes = not running and kib * 1024 / moves or nil,
    collisions = collisions / moves,
  }
end

local function run(name, lib, reuse, running)
  local tiles, movers = scene(19)
  local world, items = build(lib, tiles, movers)
  if reuse then world.reuseCollisions = true end
  local frame = newFrame()
  return measure(name, world, items, function() return frame(world, items, FALL) end, running)
end

-- shove2_move itself through the FFI, on the same scene, movers and
-- velocities: a 2D world (shove's own geometry in floats, not bump's API or
-- arithmetic) with every tile a static body and every mover a dynamic one,
-- moved top-down (up_axis -1) with the default response, slide. Its first
-- contact's normal reflects the velocity as cols[1].normal does above.
-- `quiet`: the world keeps no contact pairs or events for its moves
-- (quiet_moves), as bump keeps none.
-- shove2_move_ptr is shove2_move with the id and the delta by pointer:
-- LuaJIT compiles no FFI call that passes a struct by value.
local WORLD_FRAME_SOURCE = [[
return function(C, world, items, delta, def, result, contacts, fall)
  local collisions = 0
  for i = 1, #items do
    local item = items[i]
    delta.x, delta.y = item.vx, fall > 0 and fall or item.vy
    C.shove2_move_ptr(world, item.id, delta, def, result)
    local len = result.contact_count
    if len > 0 then
      collisions = collisions + len
      local n = contacts[0].normal
      if n.x ~= 0 then item.vx = -item.vx end
      if n.y ~= 0 and fall == 0 then item.vy = -item.vy end
    end
  end
  return collisions
end
]]

local function runWorld(name, quiet)
  local ffi = require('ffi')
  local C = bump.C
  local tiles, movers = scene(19)
  local wdef = C.shove2_default_world_def()
  wdef.bounds.min.x, wdef.bounds.min.y = 0, 0
  wdef.bounds.max.x, wdef.bounds.max.y = MAP, MAP
  wdef.body_capacity = #tiles + #movers
  wdef.quiet_moves = quiet or false
  local out = ffi.new('shove2_world*[1]')
  assert(C.shove2_world_create(wdef, out) == 0, 'shove2_world_create')
  local world = ffi.gc(out[0], C.shove2_world_destroy)
  local bdef = C.shove2_default_body_def()
  local id = ffi.new('shove_id[1]')
  for _, t in ipairs(tiles) do
    bdef.box.min.x, bdef.box.min.y = t[1], t[2]
    bdef.box.max.x, bdef.box.max.y = t[1] + 1, t[2] + 1
    assert(C.shove2_body_create(world, bdef, id) == 0, 'shove2_body_create')
  end
  bdef.type = C.SHOVE_BODY_DYNAMIC
  local items = {}
  for i, m in ipairs(movers) do
    bdef.box.min.x, bdef.box.min.y = m.x, m.y
    bdef.box.max.x, bdef.box.max.y = m.x + SIZE, m.y + SIZE
    assert(C.shove2_body_create(world, bdef, id) == 0, 'shove2_body_create')
    items[i] = { id = ffi.new('shove_id', id[0]), vx = m.vx, vy = m.vy }
  end
  local def = C.shove2_default_move_def()
  def.up_axis = -1
  local contacts = ffi.new('shove2_contact[4]')
  def.contacts, def.contact_capacity = contacts, 4
  local delta, result = ffi.new('vec2s'), ffi.new('shove2_move_result')
  local frame = assert(loadstring(WORLD_FRAME_SOURCE, '=worldframe'))()
  local function step()
    local n = frame(C, world, items, delta, def, result, contacts, FALL)
    assert(result.contact_count >= 0)
    return n
  end
  return measure(name, world, items, step)
end

floor = math.floor

print(('world:move, %d movers of %.1f, %dx%d unit tiles, cellSize %g, %d frames%s'):format(
  MOVERS, SIZE, MAP, MAP, CELL, FRAMES, FALL > 0 and (', falling %g a frame'):format(FALL) or ''))
local original = os.getenv('BUMP_LUA')
-- The same moves with the collector running, as in a game: bump.lua's
-- garbage then costs it collection time as well. Each runs first, alone in
-- the heap (its world dropped before the next is built): the collector's
-- work grows with everything alive, and the worlds of the other rows would
-- charge it to whichever ran with them.
local running = {}
do
  local function alone(name, lib, reuse)
    local t = run(name, lib, reuse, true)
    t.world, t.items = nil, nil
    collectgarbage('collect')
    collectgarbage('collect')
    return t
  end
  running.base = original and original ~= '' and alone('bump.lua', dofile(original)) or
    alone('bump-style Lua', ref)
  running.shove = alone('shove.bump', bump)
  running.reuse = alone('shove.bump reuse', bump, true)
end
local o = original and original ~= '' and run('bump.lua', dofile(original))
local r = run('bump-style Lua', ref)
local s = run('shove.bump', bump)
-- the same with world.reuseCollisions (cols belong to the world)
local u = run('shove.bump reuse', bump, true)
local m = runWorld('shove2_move (FFI)')
local q = runWorld('shove2_move quiet', true)
print(('%-18s %12s %14s %16s'):format('', 'ns/move', 'bytes/move', 'collisions/move'))
local rows = { r, s, u, m, q }
if o then table.insert(rows, 1, o) end
for _, t in ipairs(rows) do
  print(('%-18s %12.0f %14.1f %16.3f'):format(t.name, t.ns, t.bytes, t.collisions))
end
for _, base in ipairs({ o or false, r }) do
  if base then
    for _, t in ipairs({ s, u, m, q }) do
      print(('%s against %s: speed-up %.1fx, garbage %.4f'):format(t.name, base.name,
        base.ns / t.ns, t.bytes / base.bytes))
    end
  end
end
print(('with the collector running: %s %.0f ns, shove.bump %.0f ns (speed-up %.1fx), reuse %.0f ns (%.1fx)'):format(
  running.base.name, running.base.ns, running.shove.ns, running.base.ns / running.shove.ns, running.reuse.ns,
  running.base.ns / running.reuse.ns))

-- Both use bump's arithmetic; they part where bump's cells miss an item
-- that overlaps a move by a rounding error (the README tells the story).
local apart = 0
for i = 1, #r.items do
  local x1, y1 = r.world:getRect(r.items[i])
  local x2, y2 = s.world:getRect(s.items[i])
  if x1 ~= x2 or y1 ~= y2 then apart = apart + 1 end
end
print(('movers at other positions at the end: %d of %d'):format(apart, #r.items))

-- The rest of the API, on the worlds the moves left.
local function timeIt(world, items, fn, count)
  local t0 = os.clock()
  for i = 1, count do fn(world, items[(i % #items) + 1], i) end
  return (os.clock() - t0) * 1e9 / count
end

local calls = {
  { 'queryRect 3x3', function(w, item) local x, y = w:getRect(item) return w:queryRect(x - 1, y - 1, 3, 3) end },
  { 'queryPoint', function(w, item) local x, y = w:getRect(item) return w:queryPoint(x + 0.3, y + 0.3) end },
  { 'querySegment 10', function(w, item) local x, y = w:getRect(item) return w:querySegment(x, y, x + 8, y + 6) end },
  { 'update (nudge)', function(w, item, i) local x, y = w:getRect(item) w:update(item, x + (i % 2 == 0 and 1e-3 or -1e-3), y) end },
  { 'remove + add', function(w, item) local x, y, ww, hh = w:getRect(item) w:remove(item) w:add(item, x, y, ww, hh) end },
  { 'check (no move)', function(w, item) local x, y = w:getRect(item) return w:check(item, x, y) end },
}
-- against bump.lua when it is there (it has every call), else the reference
local base = o or r
print()
print(('%-18s %14s %14s %8s'):format('call', base.name .. ' ns', 'shove.bump ns', 'ratio'))
for _, c in ipairs(calls) do
  local n = 20000
  local a = base.world[c[1]:match('^%a+')] and timeIt(base.world, base.items, c[2], n)
  local b = timeIt(s.world, s.items, c[2], n)
  if a then
    print(('%-18s %14.0f %14.0f %8.1f'):format(c[1], a, b, a / b))
  else
    print(('%-18s %14s %14.0f %8s'):format(c[1], '-', b, '-'))
  end
end
local t0 = os.clock()
local cells = s.world:countCells()
print(('countCells: %d cells in %.1f ms (walks every item)'):format(cells, (os.clock() - t0) * 1e3))
