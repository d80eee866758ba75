-- shove.bump3d: bump-3dpd's API (bump.lua's API for cubes) on shove, for
-- LuaJIT.
--
--   local bump3d = require('shove.bump3d')
--   local world  = bump3d.newWorld(64)
--   world:add(player, x, y, z, w, h, d)
--   local actualX, actualY, actualZ, cols, len = world:move(player, goalX, goalY, goalZ, filter)
--
-- The 3D twin of shove.bump (lua/shove/bump.lua), built the same way: results
-- follow bump-3dpd's arithmetic (Lua numbers, its formulas for collisions,
-- touch, slide and bounce); the broad phase is a grid of bump's cells in C
-- (shove3_bump_grid), bump-3dpd's collision test runs in C
-- (shove3_bump_detect_all), and with the default filter and slide response
-- the whole check or move does (shove3_bump_grid_move). The C library comes
-- through shove/library.lua.
--
-- bump-3dpd against bump.lua: every call takes a z beside x and y and a
-- depth d beside w and h; rects are cubes (getCube, queryCube, itemCube,
-- otherCube, bump3d.cube); a slide or a bounce acts on every axis the normal
-- names; a resting overlap is pushed out along the first of the shortest
-- axes (x, then y, then z), and a slide without motion keeps its goal.
--
-- Differences from bump-3dpd (those of shove.bump from bump.lua; the README
-- section "Coming from bump.lua" has them):
-- * The `cols` of a move, check or project and their tables are the
--   caller's; with world.reuseCollisions = true they are the world's, reused
--   by the next check or move.
-- * Cubes must be finite and within float range (|v| < 3.4e38).
-- * world:countCells() walks every item each time it is called.
-- * Filters are asked about the items near the move's box, not about every
--   item in the cells it crosses.
-- * world:querySegmentWithCoords, commented out in bump-3dpd's source, is
--   here, with bump.lua's fields and a z (x1, y1, z1, x2, y2, z2, ti1, ti2).
local ffi = require('ffi')

local abs, floor, ceil, min, max = math.abs, math.floor, math.ceil, math.min, math.max
local huge = math.huge
local type, error, tostring, setmetatable = type, error, tostring, setmetatable

local bump3d = {
  _VERSION = 'shove.bump3d 0.1.0 (bump-3dpd 0.1.0 API)',
  _DESCRIPTION = "bump-3dpd's API on shove's broad phase, for LuaJIT",
  _LICENSE = 'Same license as shove',
}

local C = require('shove.library')
local shared = require('shove.bump_shared')
local isFiniteInRange, assertType, assertIsPositiveNumber = shared.isFiniteInRange, shared.assertType,
  shared.assertIsPositiveNumber
local nearest, defaultFilter, sortByWeight = shared.nearest, shared.defaultFilter, shared.sortByWeight
local growLevel, releaseBuffer, resetPools, askFilter = shared.growLevel, shared.releaseBuffer,
  shared.resetPools, shared.askFilter
bump3d.C = C

local SHOVE_OK = 0
local SHOVE_ERR_OUT_OF_RANGE = C.SHOVE_ERR_OUT_OF_RANGE
local NO_INDEX = 0xffffffff -- "skip nothing" for shove3_bump_detect_all

-- The grid compares cubes and query boxes grown by a relative 2^-20, a
-- superset of what bump's exact test accepts; cubes stay within float range.

------------------------------------------------------------------------
-- Checks (messages as bump-3dpd's)
------------------------------------------------------------------------

local function assertIsCube(x, y, z, w, h, d)
  assertType('number', x, 'x')
  assertType('number', y, 'y')
  assertType('number', z, 'z')
  assertIsPositiveNumber(w, 'w')
  assertIsPositiveNumber(h, 'h')
  assertIsPositiveNumber(d, 'd')
  if not (isFiniteInRange(x) and isFiniteInRange(y) and isFiniteInRange(z) and isFiniteInRange(w)
      and isFiniteInRange(h) and isFiniteInRange(d) and isFiniteInRange(x + w) and isFiniteInRange(y + h)
      and isFiniteInRange(z + d)) then
    error(('shove.bump3d: the cube (%s, %s, %s, %s, %s, %s) is not finite or beyond float range (3.4e38)')
      :format(tostring(x), tostring(y), tostring(z), tostring(w), tostring(h), tostring(d)), 3)
  end
end

local function assertIsPoint(x, y, z, what)
  if type(x) ~= 'number' or type(y) ~= 'number' or type(z) ~= 'number' or not isFiniteInRange(x)
      or not isFiniteInRange(y) or not isFiniteInRange(z) then
    error(('shove.bump3d: %s (%s, %s, %s) must be finite numbers within float range (3.4e38)')
      :format(what, tostring(x), tostring(y), tostring(z)), 3)
  end
end

------------------------------------------------------------------------
-- Cube functions (bump3d.cube): bump-3dpd's formulas
------------------------------------------------------------------------

local DELTA = 1e-10 -- bump's margin for floating-point comparisons

local function cube_getNearestCorner(x, y, z, w, h, d, px, py, pz)
  return nearest(px, x, x + w), nearest(py, y, y + h), nearest(pz, z, z + d)
end

-- Liang-Barsky clipping of the segment from (x1,y1,z1) by (dx,dy,dz)
-- against the cube, keeping the part in [ti1, ti2], with the normals of the
-- sides where it starts and ends; the sides are tried low then high, x then
-- y then z. Writes into SEG (a C struct, for the reason given in
-- shove.bump) and returns true, or returns false when the segment misses.
local SEG = ffi.new('struct { double ti1, ti2, nx1, ny1, nz1, nx2, ny2, nz2; }')

local function clipSide(p, q, nx, ny, nz)
  if p == 0 then
    return q > 0
  end
  local r = q / p
  local S = SEG
  if p < 0 then
    if r > S.ti2 then return false end
    if r > S.ti1 then S.ti1, S.nx1, S.ny1, S.nz1 = r, nx, ny, nz end
  else
    if r < S.ti1 then return false end
    if r < S.ti2 then S.ti2, S.nx2, S.ny2, S.nz2 = r, nx, ny, nz end
  end
  return true
end

local function clipSegment(x, y, z, w, h, d, x1, y1, z1, dx, dy, dz, ti1, ti2)
  local S = SEG
  S.ti1, S.ti2 = ti1, ti2
  S.nx1, S.ny1, S.nz1, S.nx2, S.ny2, S.nz2 = 0, 0, 0, 0, 0, 0
  return clipSide(-dx, x1 - x, -1, 0, 0) and clipSide(dx, x + w - x1, 1, 0, 0)
    and clipSide(-dy, y1 - y, 0, -1, 0) and clipSide(dy, y + h - y1, 0, 1, 0)
    and clipSide(-dz, z1 - z, 0, 0, -1) and clipSide(dz, z + d - z1, 0, 0, 1)
end

local function cube_getSegmentIntersectionIndices(x, y, z, w, h, d, x1, y1, z1, x2, y2, z2, ti1, ti2)
  if not clipSegment(x, y, z, w, h, d, x1, y1, z1, x2 - x1, y2 - y1, z2 - z1, ti1 or 0, ti2 or 1) then
    return nil
  end
  local S = SEG
  return S.ti1, S.ti2, S.nx1, S.ny1, S.nz1, S.nx2, S.ny2, S.nz2
end

-- Minkowski difference of two cubes (another cube).
local function cube_getDiff(x1, y1, z1, w1, h1, d1, x2, y2, z2, w2, h2, d2)
  return x2 - x1 - w1, y2 - y1 - h1, z2 - z1 - d1, w1 + w2, h1 + h2, d1 + d2
end

local function cube_containsPoint(x, y, z, w, h, d, px, py, pz)
  return px - x > DELTA and py - y > DELTA and pz - z > DELTA
    and x + w - px > DELTA and y + h - py > DELTA and z + d - pz > DELTA
end

local function cube_isIntersecting(x1, y1, z1, w1, h1, d1, x2, y2, z2, w2, h2, d2)
  return x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1 and z1 < z2 + d2 and z2 < z1 + d1
end

-- The squared distance between the centres (bump-3dpd's getCubeDistance).
local function cube_getCubeDistance(x1, y1, z1, w1, h1, d1, x2, y2, z2, w2, h2, d2)
  local dx = x1 - x2 + (w1 - w2) / 2
  local dy = y1 - y2 + (h1 - h2) / 2
  local dz = z1 - z2 + (d1 - d2) / 2
  return dx * dx + dy * dy + dz * dz
end

-- The collision test is bump-3dpd's cube.detectCollision in C
-- (shove3_bump_detect: its operations in its order, so the same bits as in
-- Lua; see shove.bump for why it is not Lua). The moving cube and its goal
-- are MOVE_CUBE and MOVE_GOAL, the cube tested against OTHER_CUBE, the
-- results HITS; all read and written through flat views (MOVE, HITD, HITB).
local MOVE = ffi.new('double[9]') -- x, y, z, w, h, d, goal x, y, z
local MOVE_CUBE = ffi.cast('shove3_bump_rect *', MOVE)
local MOVE_GOAL = MOVE + 6
assert(ffi.sizeof('shove3_bump_rect') == 48 and ffi.offsetof('shove3_bump_rect', 'size') == 24,
  'shove.bump3d: shove3_bump_rect is not { x, y, z, w, h, d }')
local OTHER = ffi.new('double[6]')
local OTHER_CUBE = ffi.cast('shove3_bump_rect *', OTHER)
-- A hit as doubles: ti, normal x, y, z, touch x, y, z at HIT_STRIDE * j + 0
-- .. 6, and `overlaps` as a byte at HIT_BYTES * j + HIT_OVERLAPS.
local HIT_BYTES = ffi.sizeof('shove3_bump_hit')
local HIT_STRIDE = HIT_BYTES / 8
local HIT_OVERLAPS = ffi.offsetof('shove3_bump_hit', 'overlaps')
assert(ffi.offsetof('shove3_bump_hit', 'normal') == 8 and ffi.offsetof('shove3_bump_hit', 'touch') == 32
  and HIT_BYTES % 8 == 0, 'shove.bump3d: shove3_bump_hit is not { ti, normal, touch, overlaps }')
local hitsCap = 64
local HITS, HITD, HITB, FOUND
local function growHits(count)
  while hitsCap < count do hitsCap = hitsCap * 2 end
  HITS = ffi.new('shove3_bump_hit[?]', hitsCap)
  HITD = ffi.cast('double *', HITS)
  HITB = ffi.cast('uint8_t *', HITS)
  FOUND = ffi.new('uint32_t[?]', hitsCap)
end
growHits(hitsCap)

local function setMove(x, y, z, w, h, d, goalX, goalY, goalZ)
  local M = MOVE
  M[0], M[1], M[2], M[3], M[4], M[5] = x, y, z, w, h, d
  M[6], M[7], M[8] = goalX, goalY, goalZ
end

-- A collision table from hit j, the move and the other cube: all of
-- bump-3dpd's fields in one constructor.
local function newCollision(j, item, other, responseName, ox, oy, oz, ow, oh, od)
  local M, D, k = MOVE, HITD, HIT_STRIDE * j
  local x, y, z = M[0], M[1], M[2]
  return {
    item = item,
    other = other,
    type = responseName,
    overlaps = HITB[HIT_BYTES * j + HIT_OVERLAPS] ~= 0,
    ti = D[k],
    move = { x = M[6] - x, y = M[7] - y, z = M[8] - z },
    normal = { x = D[k + 1], y = D[k + 2], z = D[k + 3] },
    touch = { x = D[k + 4], y = D[k + 5], z = D[k + 6] },
    itemCube = { x = x, y = y, z = z, w = M[3], h = M[4], d = M[5] },
    otherCube = { x = ox, y = oy, z = oz, w = ow, h = oh, d = od },
    slide = nil,
    bounce = nil,
  }
end

local function cube_detectCollision(x1, y1, z1, w1, h1, d1, x2, y2, z2, w2, h2, d2, goalX, goalY, goalZ)
  goalX = goalX or x1
  goalY = goalY or y1
  goalZ = goalZ or z1
  setMove(x1, y1, z1, w1, h1, d1, goalX, goalY, goalZ)
  local O = OTHER
  O[0], O[1], O[2], O[3], O[4], O[5] = x2, y2, z2, w2, h2, d2
  if not C.shove3_bump_detect(MOVE_CUBE, MOVE_GOAL, OTHER_CUBE, HITS) then return nil end
  return newCollision(0, nil, nil, nil, x2, y2, z2, w2, h2, d2)
end

------------------------------------------------------------------------
-- Grid functions (bump's cells: 1-based, cellSize wide)
------------------------------------------------------------------------

local function grid_toWorld(cellSize, cx, cy, cz)
  return (cx - 1) * cellSize, (cy - 1) * cellSize, (cz - 1) * cellSize
end

local function grid_toCell(cellSize, x, y, z)
  return floor(x / cellSize) + 1, floor(y / cellSize) + 1, floor(z / cellSize) + 1
end

local function grid_toCellCube(cellSize, x, y, z, w, h, d)
  local cx, cy, cz = grid_toCell(cellSize, x, y, z)
  local cr, cb, cf = ceil((x + w) / cellSize), ceil((y + h) / cellSize), ceil((z + d) / cellSize)
  return cx, cy, cz, cr - cx + 1, cb - cy + 1, cf - cz + 1
end

------------------------------------------------------------------------
-- Responses (bump-3dpd's)
------------------------------------------------------------------------

local EMPTY = setmetatable({}, { __newindex = function() error('shove.bump3d: this empty list is shared; copy it first', 2) end })

local function touch(world, col, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  local t = col.touch
  return t.x, t.y, t.z, EMPTY, 0
end

local function cross(world, col, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  local cols, len = world:project(col.item, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  return goalX, goalY, goalZ, cols, len
end

-- On along the surface: the touch on the axes the normal names, the goal
-- on the others; without motion the goal stays.
local function slide(world, col, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  goalX = goalX or x
  goalY = goalY or y
  goalZ = goalZ or z

  local tch, move, n = col.touch, col.move, col.normal
  if move.x ~= 0 or move.y ~= 0 or move.z ~= 0 then
    if n.x ~= 0 then goalX = tch.x end
    if n.y ~= 0 then goalY = tch.y end
    if n.z ~= 0 then goalZ = tch.z end
  end

  col.slide = { x = goalX, y = goalY, z = goalZ }

  local cols, len = world:project(col.item, tch.x, tch.y, tch.z, w, h, d, goalX, goalY, goalZ, filter)
  return goalX, goalY, goalZ, cols, len
end

-- Back from the surface: the rest of the motion, mirrored on the axes the
-- normal names.
local function bounce(world, col, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  goalX = goalX or x
  goalY = goalY or y
  goalZ = goalZ or z

  local tch, move, n = col.touch, col.move, col.normal
  local tx, ty, tz = tch.x, tch.y, tch.z
  local bx, by, bz = tx, ty, tz

  if move.x ~= 0 or move.y ~= 0 or move.z ~= 0 then
    local bnx, bny, bnz = goalX - tx, goalY - ty, goalZ - tz
    if n.x ~= 0 then bnx = -bnx end
    if n.y ~= 0 then bny = -bny end
    if n.z ~= 0 then bnz = -bnz end
    bx, by, bz = tx + bnx, ty + bny, tz + bnz
  end

  col.bounce = { x = bx, y = by, z = bz }

  local cols, len = world:project(col.item, tx, ty, tz, w, h, d, bx, by, bz, filter)
  return bx, by, bz, cols, len
end

------------------------------------------------------------------------
-- World
------------------------------------------------------------------------

local World = {}
local World_mt = { __index = World }
World.addResponse, World.hasItem = shared.addResponse, shared.hasItem
World.getItems, World.countItems = shared.getItems, shared.countItems

-- A nested move or check (from inside a filter) cannot tell an error that
-- escaped an earlier one from a real nesting; past this many pooled
-- collisions it assumes the former and starts the pools again.
local POOL_STALE = 4096

local function missing(item, what)
  error('Item ' .. tostring(item) .. ' must be added to the world before ' .. what
    .. '. Use world:add(item, x,y,z,w,h,d) to add it first.', 3)
end

-- A cube handed to the grid (x, y, z, w, h, d), and a query box (low
-- corner, high corner).
local CUBE = ffi.new('double[6]')
local CUBE_C = ffi.cast('shove3_bump_rect *', CUBE)
local QUERY = ffi.new('double[6]')
local QUERY_HI = QUERY + 3
local INDEX = ffi.new('uint32_t[1]')

-- Ids of the items whose padded cube meets the padded box [lx, hx] x [ly,
-- hy] x [lz, hz]; returns the buffer, the count and the level; release
-- with releaseBuffer.
local function broad(self, lx, ly, lz, hx, hy, hz)
  local level = self._bufTop + 1
  if level > 32 then level = 1 end -- left over by errors raised in filters
  self._bufTop = level
  local buf, cap = self._bufs[level], self._bufCaps[level]
  if not buf then
    cap = 64
    buf = growLevel(self, level, cap)
  end
  local Q = QUERY
  Q[0], Q[1], Q[2], Q[3], Q[4], Q[5] = lx, ly, lz, hx, hy, hz
  local n = C.shove3_bump_grid_query(self._grid, Q, QUERY_HI, buf, cap)
  if n > cap then
    cap = n + n / 2
    buf = growLevel(self, level, cap)
    n = C.shove3_bump_grid_query(self._grid, Q, QUERY_HI, buf, cap)
  end
  return buf, n, level
end

local function takeList(self)
  local top = self._listTop + 1
  self._listTop = top
  local list = self._lists[top]
  if not list then
    list = {}
    self._lists[top] = list
    self._listLens[top] = 0
  else
    for i = 1, self._listLens[top] do list[i] = nil end
  end
  return list, top
end

-- A pooled collision table for a projection inside a check.
local function takeCollision(self)
  local top = self._colTop + 1
  self._colTop = top
  local col = self._cols[top]
  if not col then
    col = newCollision(0, nil, nil, nil, 0, 0, 0, 0, 0, 0)
    self._cols[top] = col
    self._pooled[col] = true
  end
  return col
end

-- The collision of hit j: written into the pooled table col, or into a
-- new table when col is nil.
local function makeCollision(col, j, item, other, responseName, ox, oy, oz, ow, oh, od)
  if not col then return newCollision(j, item, other, responseName, ox, oy, oz, ow, oh, od) end
  local M, D, k = MOVE, HITD, HIT_STRIDE * j
  local x, y, z = M[0], M[1], M[2]
  col.item, col.other, col.type = item, other, responseName
  col.overlaps, col.ti = HITB[HIT_BYTES * j + HIT_OVERLAPS] ~= 0, D[k]
  col.slide, col.bounce = nil, nil
  local m, n, t, ic, oc = col.move, col.normal, col.touch, col.itemCube, col.otherCube
  m.x, m.y, m.z = M[6] - x, M[7] - y, M[8] - z
  n.x, n.y, n.z = D[k + 1], D[k + 2], D[k + 3]
  t.x, t.y, t.z = D[k + 4], D[k + 5], D[k + 6]
  ic.x, ic.y, ic.z, ic.w, ic.h, ic.d = x, y, z, M[3], M[4], M[5]
  oc.x, oc.y, oc.z, oc.w, oc.h, oc.d = ox, oy, oz, ow, oh, od
  return col
end

-- A table of the caller's with the fields of the pooled collision col.
local function copyCollision(col)
  local m, n, t, ic, oc = col.move, col.normal, col.touch, col.itemCube, col.otherCube
  return {
    item = col.item,
    other = col.other,
    type = col.type,
    overlaps = col.overlaps,
    ti = col.ti,
    move = { x = m.x, y = m.y, z = m.z },
    normal = { x = n.x, y = n.y, z = n.z },
    touch = { x = t.x, y = t.y, z = t.z },
    itemCube = { x = ic.x, y = ic.y, z = ic.z, w = ic.w, h = ic.h, d = ic.d },
    otherCube = { x = oc.x, y = oc.y, z = oc.z, w = oc.w, h = oc.h, d = oc.d },
    slide = nil,
    bounce = nil,
  }
end

local function distanceTo(ic, oc)
  return cube_getCubeDistance(ic.x, ic.y, ic.z, ic.w, ic.h, ic.d, oc.x, oc.y, oc.z, oc.w, oc.h, oc.d)
end

-- Insertion sort by ti, then by distance to the item (bump's order).
local function sortCollisions(list, len)
  for i = 2, len do
    local c = list[i]
    local j = i - 1
    while j >= 1 do
      local p = list[j]
      local before
      if c.ti == p.ti then
        before = distanceTo(c.itemCube, c.otherCube) < distanceTo(c.itemCube, p.otherCube)
      else
        before = c.ti < p.ti
      end
      if not before then break end
      list[j + 1] = p
      j = j - 1
    end
    list[j + 1] = c
  end
end

-- The collisions HITS[0 .. len-1] of a projection as collision tables in
-- list (pooled ones when pooled), skipping visited items when visitedOnly;
-- names nil: all 'slide'. Returns the count.
local function collect(self, list, len, item, ids, names, pooled, visitedOnly)
  local items, cubes, visit, serial = self._items, self._cubes, self._visit, self._serial
  local count = 0
  for j = 0, len - 1 do
    local i = FOUND[j]
    local idx = ids[2 * i]
    if not (visitedOnly and visit[idx] == serial) then
      local k = idx * 6
      local col = pooled and takeCollision(self) or nil
      count = count + 1
      list[count] = makeCollision(col, j, item, items[idx], names and names[i + 1] or 'slide',
        cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4], cubes[k + 5])
    end
  end
  return count
end

-- Out of the JIT, for the reason given in shove.bump.
jit.off(collect)

-- Collisions of the cube (x,y,z,w,h,d) moving to the goal with the items
-- the filter names a response for, sorted; `item` itself is skipped. The
-- list and its tables are the caller's, except for the projections of a
-- check (recognised by its filter), which use the world's pools.
function World:project(item, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  assertIsCube(x, y, z, w, h, d)
  goalX = goalX or x
  goalY = goalY or y
  goalZ = goalZ or z
  assertIsPoint(goalX, goalY, goalZ, 'the goal')

  local pooled = filter == self._visitedFilter
  local userFilter = pooled and self._userFilter or filter or defaultFilter

  local selfIndex = item ~= nil and self._index[item] or nil
  local buf, n, level = broad(self, min(goalX, x), min(goalY, y), min(goalZ, z),
    max(goalX + w, x + w), max(goalY + h, y + h), max(goalZ + d, z + d))
  local list, listIndex
  if pooled then
    list, listIndex = takeList(self)
  else
    list = {}
  end
  local len = 0
  if n > 1 or (n == 1 and buf[0] ~= selfIndex) then
    -- with the default filter C looks at the whole buffer; else the filter
    -- picks the candidates first, as in bump
    local ids, idWords, names, m = self._which[level], self._whichWords[level], nil, n
    if userFilter ~= defaultFilter then
      m = askFilter(self, level, item, buf, n, selfIndex, pooled, userFilter)
      names = self._names[level]
    else
      for i = 0, n - 1 do idWords[2 * i] = buf[i] end
    end
    if m > 0 then
      if m > hitsCap then growHits(m) end
      -- after the filter (which may project too): the move goes in now
      setMove(x, y, z, w, h, d, goalX, goalY, goalZ)
      local found = C.shove3_bump_detect_all(MOVE_CUBE, MOVE_GOAL, self._cubesC, ids, m,
        selfIndex or NO_INDEX, HITS, FOUND)
      if found > 0 then
        len = collect(self, list, found, item, idWords, names, pooled, pooled and names == nil)
      end
    end
  end
  releaseBuffer(self)

  sortCollisions(list, len)
  if pooled then self._listLens[listIndex] = len end
  return list, len
end

-- bump-3dpd keeps a cell table per occupied cell (planes of weak rows); a
-- cell that empties stays counted until the garbage collector takes it.
-- This module keeps no cells: countCells rebuilds the same picture from
-- the items when it is called (as shove.bump's does).
function World:countCells()
  local planes, strong = self._cellPlanes, {}
  local cellSize, cubes = self.cellSize, self._cubes
  for idx, _ in pairs(self._items) do
    local k = idx * 6
    local cl, ct, cs, cw, ch, cd = grid_toCellCube(cellSize, cubes[k], cubes[k + 1], cubes[k + 2],
      cubes[k + 3], cubes[k + 4], cubes[k + 5])
    for cz = cs, cs + cd - 1 do
      local plane = planes[cz]
      if not plane then
        plane = {}
        planes[cz] = plane
      end
      for cy = ct, ct + ch - 1 do
        local row = plane[cy]
        if not row then
          row = setmetatable({}, { __mode = 'v' })
          plane[cy] = row
        end
        for cx = cl, cl + cw - 1 do
          local cell = row[cx]
          if not cell then
            cell = { x = cx, y = cy, z = cz }
            row[cx] = cell
          end
          strong[cell] = true
        end
      end
    end
  end
  self._cellsInUse = strong
  local count = 0
  for _, plane in pairs(planes) do
    for _, row in pairs(plane) do
      for _ in pairs(row) do
        count = count + 1
      end
    end
  end
  return count
end

function World:getCube(item)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'getting its cube') end
  local c, k = self._cubes, idx * 6
  return c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4], c[k + 5]
end

function World:toWorld(cx, cy, cz)
  return grid_toWorld(self.cellSize, cx, cy, cz)
end

function World:toCell(x, y, z)
  return grid_toCell(self.cellSize, x, y, z)
end

------------------------------------------------------------------------
-- Queries
------------------------------------------------------------------------

function World:queryCube(x, y, z, w, h, d, filter)
  assertIsCube(x, y, z, w, h, d)
  local buf, n = broad(self, x, y, z, x + w, y + h, z + d)
  local items, len = {}, 0
  local all, cubes = self._items, self._cubes
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 6
    if cube_isIntersecting(x, y, z, w, h, d, cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4],
        cubes[k + 5]) and (not filter or filter(item)) then
      len = len + 1
      items[len] = item
    end
  end
  releaseBuffer(self)
  return items, len
end

function World:queryPoint(x, y, z, filter)
  assertIsPoint(x, y, z, 'the point')
  local buf, n = broad(self, x, y, z, x, y, z)
  local items, len = {}, 0
  local all, cubes = self._items, self._cubes
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 6
    if cube_containsPoint(cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4], cubes[k + 5], x, y, z)
        and (not filter or filter(item)) then
      len = len + 1
      items[len] = item
    end
  end
  releaseBuffer(self)
  return items, len
end

local function getInfoAboutItemsTouchedBySegment(self, x1, y1, z1, x2, y2, z2, filter)
  assertIsPoint(x1, y1, z1, 'the segment start')
  assertIsPoint(x2, y2, z2, 'the segment end')
  local buf, n = broad(self, min(x1, x2), min(y1, y2), min(z1, z2), max(x1, x2), max(y1, y2), max(z1, z2))
  local info, len = {}, 0
  local all, cubes = self._items, self._cubes
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 6
    local x, y, z, w, h, d = cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4], cubes[k + 5]
    local ti1, ti2 = cube_getSegmentIntersectionIndices(x, y, z, w, h, d, x1, y1, z1, x2, y2, z2, 0, 1)
    if ti1 and ((0 < ti1 and ti1 < 1) or (0 < ti2 and ti2 < 1)) and (not filter or filter(item)) then
      -- sorted by where the infinite line enters, as bump does
      local tii0, tii1 = cube_getSegmentIntersectionIndices(x, y, z, w, h, d, x1, y1, z1, x2, y2, z2, -huge, huge)
      len = len + 1
      info[len] = { item = item, ti1 = ti1, ti2 = ti2, weight = min(tii0, tii1) }
    end
  end
  releaseBuffer(self)
  table.sort(info, sortByWeight)
  return info, len
end

function World:querySegment(x1, y1, z1, x2, y2, z2, filter)
  local info, len = getInfoAboutItemsTouchedBySegment(self, x1, y1, z1, x2, y2, z2, filter)
  local items = {}
  for i = 1, len do
    items[i] = info[i].item
  end
  return items, len
end

-- bump.lua's querySegmentWithCoords with a z: each entry has item, ti1,
-- ti2 and where the segment enters (x1, y1, z1) and leaves (x2, y2, z2).
function World:querySegmentWithCoords(x1, y1, z1, x2, y2, z2, filter)
  local info, len = getInfoAboutItemsTouchedBySegment(self, x1, y1, z1, x2, y2, z2, filter)
  local dx, dy, dz = x2 - x1, y2 - y1, z2 - z1
  for i = 1, len do
    local it = info[i]
    local ti1, ti2 = it.ti1, it.ti2
    it.weight = nil
    it.x1 = x1 + dx * ti1
    it.y1 = y1 + dy * ti1
    it.z1 = z1 + dz * ti1
    it.x2 = x1 + dx * ti2
    it.y2 = y1 + dy * ti2
    it.z2 = z1 + dz * ti2
  end
  return info, len
end

------------------------------------------------------------------------
-- Main methods
------------------------------------------------------------------------

local function refused(status, what)
  error(('shove.bump3d: %s: %s'):format(what, ffi.string(C.shove_status_string(status))), 3)
end

-- The grid's cubes, read in place (x, y, z, w, h, d of item i at 6 i); an
-- add may move them.
local function fetchCubes(self)
  local cubes = C.shove3_bump_grid_rects(self._grid)
  self._cubesC = cubes
  self._cubes = ffi.cast('double *', cubes)
end

function World:add(item, x, y, z, w, h, d)
  if item == nil then error('shove.bump3d: an item cannot be nil', 2) end
  if self._index[item] then
    error('Item ' .. tostring(item) .. ' added to the world twice.', 2)
  end
  assertIsCube(x, y, z, w, h, d)

  local Q = CUBE
  Q[0], Q[1], Q[2], Q[3], Q[4], Q[5] = x, y, z, w, h, d
  local status = C.shove3_bump_grid_add(self._grid, CUBE_C, INDEX)
  if status ~= SHOVE_OK then refused(status, 'could not add the item') end
  local idx = INDEX[0]
  self._index[item] = idx
  self._items[idx] = item
  fetchCubes(self)
  self._count = self._count + 1
  return item
end

function World:remove(item)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being removed') end
  C.shove3_bump_grid_remove(self._grid, idx)
  self._index[item] = nil
  self._items[idx] = nil
  self._count = self._count - 1
end

function World:update(item, x2, y2, z2, w2, h2, d2)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being updated') end
  local c, k = self._cubes, idx * 6
  local x1, y1, z1, w1, h1, d1 = c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4], c[k + 5]
  w2, h2, d2 = w2 or w1, h2 or h1, d2 or d1
  assertIsCube(x2, y2, z2, w2, h2, d2)
  if x1 ~= x2 or y1 ~= y2 or z1 ~= z2 or w1 ~= w2 or h1 ~= h2 or d1 ~= d2 then
    local Q = CUBE
    Q[0], Q[1], Q[2], Q[3], Q[4], Q[5] = x2, y2, z2, w2, h2, d2
    local status = C.shove3_bump_grid_update(self._grid, idx, CUBE_C)
    if status ~= SHOVE_OK then refused(status, 'the C grid refused the cube') end
  end
end

-- The common check or move in one C call (shove3_bump_grid_move): with the
-- default filter and slide response, every item answers 'slide', so C runs
-- bump-3dpd's loop of projections and slides itself, and the update of the
-- cube after it. Its collisions come back in SLIDES, read through flat views.
local slidesCap, idsCap = 16, 256
local SLIDES, SLIDED, SLIDEW, SLIDEB, SLIDE_IDS
local COL_BYTES = ffi.sizeof('shove3_bump_col')
local COL_STRIDE, COL_WORDS = COL_BYTES / 8, COL_BYTES / 4
local COL_OTHER = ffi.offsetof('shove3_bump_col', 'other') / 4
local COL_HIT = ffi.offsetof('shove3_bump_col', 'hit') / 8
local COL_OVERLAPS = ffi.offsetof('shove3_bump_col', 'hit') + HIT_OVERLAPS
local COL_FROM = ffi.offsetof('shove3_bump_col', 'from') / 8
local COL_MOVE = ffi.offsetof('shove3_bump_col', 'move') / 8
local COL_SLIDE = ffi.offsetof('shove3_bump_col', 'slide') / 8
assert(COL_BYTES % 8 == 0 and ffi.offsetof('shove3_bump_col', 'hit') % 8 == 0,
  'shove.bump3d: shove3_bump_col is not laid out in doubles')
local SLIDE_GOAL = ffi.new('double[3]')
local SLIDE_ACTUAL = ffi.new('double[3]')
local SLIDE_COUNT = ffi.new('uint32_t[1]')
local function growSlides(cols, ids)
  slidesCap, idsCap = cols, ids
  SLIDES = ffi.new('shove3_bump_col[?]', slidesCap)
  SLIDED = ffi.cast('double *', SLIDES)
  SLIDEW = ffi.cast('uint32_t *', SLIDES)
  SLIDEB = ffi.cast('uint8_t *', SLIDES)
  SLIDE_IDS = ffi.new('uint32_t[?]', idsCap)
end
growSlides(slidesCap, idsCap)

-- slide tables of the world's pooled collisions, kept beside them (reuse
-- mode)
local spareSlides = setmetatable({}, { __mode = 'k' })

-- The collisions of the default move are the caller's: each gets the five
-- plain fields and `normal` at once, and its other vectors and cubes when
-- first read, from numbers kept in a metatable of its own (at these
-- places), as in shove.bump. A field read is then a plain field.
local LAZY_AT = { move = 1, normal = 4, touch = 7, itemCube = 10, otherCube = 16, slide = 22 }
local function lazyField(col, key)
  local at = LAZY_AT[key]
  if not at then return nil end
  local n = getmetatable(col)
  local v
  if at == 10 or at == 16 then
    v = { x = n[at], y = n[at + 1], z = n[at + 2], w = n[at + 3], h = n[at + 4], d = n[at + 5] }
  else
    v = { x = n[at], y = n[at + 1], z = n[at + 2] }
  end
  rawset(col, key, v)
  return v
end

-- Collision j of SLIDES as a table: the world's pooled one when `reuse`,
-- else a new one of the caller's (see lazyField).
local function slideCollision(self, item, j, reuse)
  local D, items, cubes = SLIDED, self._items, self._cubes
  local c, h, f = COL_STRIDE * j, COL_STRIDE * j + COL_HIT, COL_STRIDE * j + COL_FROM
  local idx = SLIDEW[COL_WORDS * j + COL_OTHER]
  local k = idx * 6
  local m, sl = c + COL_MOVE, c + COL_SLIDE
  if not reuse then
    return setmetatable({
      item = item,
      other = items[idx],
      type = 'slide',
      overlaps = SLIDEB[COL_BYTES * j + COL_OVERLAPS] ~= 0,
      ti = D[h],
      normal = { x = D[h + 1], y = D[h + 2], z = D[h + 3] },
    }, {
      __index = lazyField,
      D[m], D[m + 1], D[m + 2], -- move
      D[h + 1], D[h + 2], D[h + 3], -- normal
      D[h + 4], D[h + 5], D[h + 6], -- touch
      D[f], D[f + 1], D[f + 2], D[f + 3], D[f + 4], D[f + 5], -- itemCube
      cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4], cubes[k + 5], -- otherCube
      D[sl], D[sl + 1], D[sl + 2], -- slide
    })
  end
  local col = takeCollision(self)
  col.item, col.other, col.type = item, items[idx], 'slide'
  col.overlaps, col.ti = SLIDEB[COL_BYTES * j + COL_OVERLAPS] ~= 0, D[h]
  local mv, n, t, ic, oc = col.move, col.normal, col.touch, col.itemCube, col.otherCube
  mv.x, mv.y, mv.z = D[m], D[m + 1], D[m + 2]
  n.x, n.y, n.z = D[h + 1], D[h + 2], D[h + 3]
  t.x, t.y, t.z = D[h + 4], D[h + 5], D[h + 6]
  ic.x, ic.y, ic.z, ic.w, ic.h, ic.d = D[f], D[f + 1], D[f + 2], D[f + 3], D[f + 4], D[f + 5]
  oc.x, oc.y, oc.z, oc.w, oc.h, oc.d = cubes[k], cubes[k + 1], cubes[k + 2], cubes[k + 3], cubes[k + 4], cubes[k + 5]
  local st = spareSlides[col]
  if not st then
    st = {}
    spareSlides[col] = st
  end
  st.x, st.y, st.z = D[sl], D[sl + 1], D[sl + 2]
  col.slide, col.bounce = st, nil
  return col
end

local function buildSlides(self, item, len, reuse)
  local cols, listIndex
  if reuse then
    cols, listIndex = takeList(self)
    self._listLens[listIndex] = len
  else
    cols = {}
  end
  for j = 0, len - 1 do
    cols[j + 1] = slideCollision(self, item, j, reuse)
  end
  return cols
end

-- World:check through shove3_bump_grid_move; nil when C asks for more
-- room than the buffers have (the caller then takes the general path).
-- With `move`, C also moves the cube (World:move's update).
local function checkSliding(self, item, idx, goalX, goalY, goalZ, move)
  local G = SLIDE_GOAL
  G[0], G[1], G[2] = goalX, goalY, goalZ
  local status = C.shove3_bump_grid_move(self._grid, idx, G, move, SLIDE_IDS, idsCap, SLIDES, slidesCap,
    SLIDE_COUNT, SLIDE_ACTUAL)
  if status ~= SHOVE_OK then
    if status ~= SHOVE_ERR_OUT_OF_RANGE then refused(status, 'the C grid refused the move') end
    -- more items near the move, or more collisions, than there is room
    -- for: grow once, up to what the world holds
    local bodies = self._count + 1
    growSlides(max(slidesCap, bodies), max(idsCap * 2, bodies))
    return nil
  end
  local len = SLIDE_COUNT[0]
  local x, y, z = SLIDE_ACTUAL[0], SLIDE_ACTUAL[1], SLIDE_ACTUAL[2]
  local reuse = self.reuseCollisions
  if reuse and self._depth == 0 then resetPools(self) end
  local cols
  if len > 0 then
    cols = buildSlides(self, item, len, reuse)
  else
    cols = reuse and EMPTY or {}
  end
  return x, y, z, cols, len
end

-- bump-3dpd's check loop for the cube (x,y,z,w,h,d) of `item` (which may
-- not be in the world: World:projectMove) going to the goal: project,
-- answer the first collision with its response, project again from there,
-- each item met once.
local function checkLoop(self, item, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  local depth = self._depth
  if depth == 0 or self._colTop > POOL_STALE then
    depth = 0
    resetPools(self)
  end
  self._depth = depth + 1
  local savedFilter, savedSerial = self._userFilter, self._serial
  local serial = self._nextSerial + 1
  self._nextSerial = serial
  self._serial = serial
  self._userFilter = filter or defaultFilter

  local visit, index, responses = self._visit, self._index, self.responses
  local visitedFilter = self._visitedFilter
  local reuse = self.reuseCollisions
  local cols, listIndex, len = nil, nil, 0

  local projected, projectedLen = self:project(item, x, y, z, w, h, d, goalX, goalY, goalZ, visitedFilter)
  while projectedLen > 0 do
    local col = projected[1]
    if not cols then
      if reuse then cols, listIndex = takeList(self) else cols = {} end
    end
    -- the pooled tables of this check's projections stay with the world;
    -- the caller gets its own (unless it asked for reuse)
    if not reuse and self._pooled[col] then col = copyCollision(col) end
    len = len + 1
    cols[len] = col
    local otherIndex = index[col.other]
    if otherIndex then visit[otherIndex] = serial end

    local response = responses[col.type]
    if not response then
      error(('Unknown collision type: %s (%s)'):format(tostring(col.type), type(col.type)), 3)
    end
    goalX, goalY, goalZ, projected, projectedLen = response(self, col, x, y, z, w, h, d, goalX, goalY, goalZ,
      visitedFilter)
  end

  -- (an error raised in a filter or a response leaves the depth raised;
  -- later checks start the pools again past POOL_STALE, as in shove.bump)
  if listIndex then self._listLens[listIndex] = len end
  self._userFilter, self._serial = savedFilter, savedSerial
  self._depth = depth
  if not cols then cols = reuse and EMPTY or {} end
  return goalX, goalY, goalZ, cols, len
end

function World:check(item, goalX, goalY, goalZ, filter)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being checked') end
  local c, k = self._cubes, idx * 6
  goalX = goalX or c[k]
  goalY = goalY or c[k + 1]
  goalZ = goalZ or c[k + 2]
  assertIsPoint(goalX, goalY, goalZ, 'the goal')
  if (filter == nil or filter == defaultFilter) and self.responses.slide == slide then
    local x, y, z, cols, len = checkSliding(self, item, idx, goalX, goalY, goalZ, false)
    if x then return x, y, z, cols, len end
  end
  return checkLoop(self, item, c[k], c[k + 1], c[k + 2], c[k + 3], c[k + 4], c[k + 5], goalX, goalY, goalZ, filter)
end

function World:move(item, goalX, goalY, goalZ, filter)
  local idx = item ~= nil and self._index[item]
  if idx and (filter == nil or filter == defaultFilter) and self.responses.slide == slide then
    -- World:check's fast path, with the update inside
    local c, k = self._cubes, idx * 6
    goalX = goalX or c[k]
    goalY = goalY or c[k + 1]
    goalZ = goalZ or c[k + 2]
    assertIsPoint(goalX, goalY, goalZ, 'the goal')
    local x, y, z, cols, len = checkSliding(self, item, idx, goalX, goalY, goalZ, true)
    if x then return x, y, z, cols, len end
  end
  local actualX, actualY, actualZ, cols, len = self:check(item, goalX, goalY, goalZ, filter)
  self:update(item, actualX, actualY, actualZ)
  return actualX, actualY, actualZ, cols, len
end

-- bump-3dpd's projectMove: the check of a cube that need not be in the
-- world (`item` is what filters are asked about, and is skipped when it is
-- in the world); nothing moves.
function World:projectMove(item, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
  assertIsCube(x, y, z, w, h, d)
  goalX = goalX or x
  goalY = goalY or y
  goalZ = goalZ or z
  assertIsPoint(goalX, goalY, goalZ, 'the goal')
  return checkLoop(self, item, x, y, z, w, h, d, goalX, goalY, goalZ, filter)
end

------------------------------------------------------------------------
-- Public library functions
------------------------------------------------------------------------

bump3d.newWorld = function(cellSize)
  cellSize = cellSize or 64
  assertIsPositiveNumber(cellSize, 'cellSize')

  local out = ffi.new('shove3_bump_grid*[1]')
  local status = C.shove3_bump_grid_create(min(cellSize, 1.7976931348623157e308), nil, out)
  if status ~= SHOVE_OK then
    error('shove.bump3d: could not create a world: ' .. ffi.string(C.shove_status_string(status)), 2)
  end
  local grid = ffi.gc(out[0], C.shove3_bump_grid_destroy)

  local world = setmetatable({
    cellSize = cellSize,
    -- true: the cols of check and move, and their tables, are the world's,
    -- reused by the next check or move (no garbage); false: the caller's
    reuseCollisions = false,
    responses = {},
    _grid = grid,
    _bufs = {}, -- per level: the indices a query found
    _bufCaps = {},
    _bufTop = 0,
    _which = {}, -- per level: ids of the items the filter named a response for
    _whichWords = {}, -- the same as 32-bit words (index i is word 2 i)
    _names = {}, -- per level: the responses it named
    -- items by their index in the grid, and the grid's cubes
    _index = {},
    _items = {},
    _cubes = false, -- x, y, z, w, h, d of item i at 6 i (see fetchCubes)
    _cubesC = false, -- the same as shove3_bump_rect *
    _count = 0,
    -- countCells' picture of bump-3dpd's cells
    _cellPlanes = {},
    _cellsInUse = {},
    -- check state: visited stamps, pooled lists and collisions
    _visit = {},
    _serial = 0,
    _nextSerial = 0,
    _depth = 0,
    _userFilter = defaultFilter,
    _lists = {},
    _listLens = {},
    _listTop = 0,
    _cols = {},
    _pooled = {}, -- the tables in _cols, as a set
    _colTop = 0,
  }, World_mt)

  -- The filter a check hands to responses: it skips the items the check
  -- has met, then asks the check's filter. World:project recognises it
  -- and does both without calling it.
  world._visitedFilter = function(itm, other)
    local i = world._index[other]
    if i and world._visit[i] == world._serial then return false end
    return world._userFilter(itm, other)
  end

  fetchCubes(world)

  world:addResponse('touch', touch)
  world:addResponse('cross', cross)
  world:addResponse('slide', slide)
  world:addResponse('bounce', bounce)

  return world
end

bump3d.cube = {
  getNearestCorner = cube_getNearestCorner,
  getSegmentIntersectionIndices = cube_getSegmentIntersectionIndices,
  getDiff = cube_getDiff,
  containsPoint = cube_containsPoint,
  isIntersecting = cube_isIntersecting,
  getCubeDistance = cube_getCubeDistance,
  -- its name in bump-3dpd's first releases (bump.lua's name)
  getSquareDistance = cube_getCubeDistance,
  detectCollision = cube_detectCollision,
}

bump3d.responses = {
  touch = touch,
  cross = cross,
  slide = slide,
  bounce = bounce,
}

return bump3d
