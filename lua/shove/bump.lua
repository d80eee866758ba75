-- shove.bump: bump.lua's API on shove, for LuaJIT (LÖVE and other games).
--
--   local bump  = require('shove.bump')
--   local world = bump.newWorld(64)
--   world:add(player, x, y, w, h)
--   local actualX, actualY, cols, len = world:move(player, goalX, goalY, filter)
--
-- Results follow bump.lua's arithmetic (Lua numbers, bump's formulas for
-- collisions, touch, slide and bounce), so games keep their behaviour. The
-- broad phase (which items are near a move or a query) is a grid of bump's
-- cells in C (shove2_bump_grid), reached through LuaJIT's FFI, and bump's
-- collision test runs in C (shove2_bump_detect_all), with bump's operations
-- in bump's order; with bump's default filter and slide response the whole
-- check or move does (shove2_bump_grid_move).
-- The C library comes through shove/library.lua: see there for where it is
-- loaded from (SHOVE_LIBRARY) and the C declarations (shove/cdef.lua).
--
-- Differences from bump.lua (the README section "Coming from bump.lua" has
-- the full list):
-- * As in bump, the `cols` list a move, check or project returns, and the
--   collision tables in it, are the caller's. With world.reuseCollisions =
--   true they belong to the world instead: the next check or move reuses
--   them, and a move makes almost no garbage.
-- * Rectangles must be finite and within float range (|v| < 3.4e38); bump
--   stores NaN and infinities, this module raises an error.
-- * world:countCells() walks every item each time it is called (bump keeps
--   its cells up to date on every add, remove and update instead).
-- * Filters may be called for other candidates than bump's (bump calls them
--   for every item in the cells a move crosses; here, for items whose rect
--   comes within a relative 2^-20 of the move's bounding rect).
local ffi = require('ffi')

local abs, floor, ceil, min, max = math.abs, math.floor, math.ceil, math.min, math.max
local huge = math.huge
local type, error, tostring, setmetatable = type, error, tostring, setmetatable

local bump = {
  _VERSION = 'shove.bump 0.1.0 (bump.lua 3.1.7 API)',
  _DESCRIPTION = "bump.lua's API on shove's broad phase, for LuaJIT",
  _LICENSE = 'Same license as shove',
}

------------------------------------------------------------------------
-- The C library
------------------------------------------------------------------------

local C = require('shove.library')
local shared = require('shove.bump_shared')
local isFiniteInRange, assertType, assertIsPositiveNumber = shared.isFiniteInRange, shared.assertType,
  shared.assertIsPositiveNumber
local nearest, defaultFilter, sortByWeight = shared.nearest, shared.defaultFilter, shared.sortByWeight
local growLevel, releaseBuffer, resetPools, askFilter = shared.growLevel, shared.releaseBuffer,
  shared.resetPools, shared.askFilter
bump.C = C

local SHOVE_OK = 0
local SHOVE_ERR_OUT_OF_RANGE = C.SHOVE_ERR_OUT_OF_RANGE
local NO_INDEX = 0xffffffff -- "skip nothing" for shove2_bump_detect_all

-- The items live in a C grid (shove2_bump_grid: bump's cells, in C, in
-- doubles). It compares rects and query boxes grown by a relative 2^-20,
-- so its queries find a superset of the items bump's exact tests accept.
-- Rects stay within float range, as when shove's float world kept them.

------------------------------------------------------------------------
-- Checks (messages as bump's)
------------------------------------------------------------------------

local function assertIsRect(x, y, w, h)
  assertType('number', x, 'x')
  assertType('number', y, 'y')
  assertIsPositiveNumber(w, 'w')
  assertIsPositiveNumber(h, 'h')
  if not (isFiniteInRange(x) and isFiniteInRange(y) and isFiniteInRange(w) and isFiniteInRange(h)
      and isFiniteInRange(x + w) and isFiniteInRange(y + h)) then
    error(('shove.bump: the rect (%s, %s, %s, %s) is not finite or beyond float range (3.4e38)')
      :format(tostring(x), tostring(y), tostring(w), tostring(h)), 3)
  end
end

local function assertIsPoint(x, y, what)
  if type(x) ~= 'number' or type(y) ~= 'number' or not isFiniteInRange(x) or not isFiniteInRange(y) then
    error(('shove.bump: %s (%s, %s) must be finite numbers within float range (3.4e38)')
      :format(what, tostring(x), tostring(y)), 3)
  end
end

------------------------------------------------------------------------
-- Rectangle functions (bump.rect): bump's formulas
------------------------------------------------------------------------

local DELTA = 1e-10 -- bump's margin for floating-point comparisons

local function sign(x)
  if x > 0 then return 1 end
  if x == 0 then return 0 end
  return -1
end

local function rect_getNearestCorner(x, y, w, h, px, py)
  return nearest(px, x, x + w), nearest(py, y, y + h)
end

-- Liang-Barsky clipping of the segment from (x1,y1) by (dx,dy) against the
-- rect, keeping the part in [ti1, ti2], with the normals of the sides where
-- the clipped segment starts and ends. The sides are tried left, right, top,
-- bottom. Writes into SEG and returns true, or returns false when the segment
-- misses. (The result goes through a C struct rather than six return values:
-- LuaJIT compiles the callers' loops then; with six floating-point values
-- live at every branch it gives up on them.)
local SEG = ffi.new('struct { double ti1, ti2, nx1, ny1, nx2, ny2; }')

local function clipSide(p, q, nx, ny)
  if p == 0 then
    return q > 0
  end
  local r = q / p
  local S = SEG
  if p < 0 then
    if r > S.ti2 then return false end
    if r > S.ti1 then S.ti1, S.nx1, S.ny1 = r, nx, ny end
  else
    if r < S.ti1 then return false end
    if r < S.ti2 then S.ti2, S.nx2, S.ny2 = r, nx, ny end
  end
  return true
end

local function clipSegment(x, y, w, h, x1, y1, dx, dy, ti1, ti2)
  local S = SEG
  S.ti1, S.ti2 = ti1, ti2
  S.nx1, S.ny1, S.nx2, S.ny2 = 0, 0, 0, 0
  return clipSide(-dx, x1 - x, -1, 0) and clipSide(dx, x + w - x1, 1, 0)
    and clipSide(-dy, y1 - y, 0, -1) and clipSide(dy, y + h - y1, 0, 1)
end

local function rect_getSegmentIntersectionIndices(x, y, w, h, x1, y1, x2, y2, ti1, ti2)
  if not clipSegment(x, y, w, h, x1, y1, x2 - x1, y2 - y1, ti1 or 0, ti2 or 1) then
    return nil
  end
  local S = SEG
  return S.ti1, S.ti2, S.nx1, S.ny1, S.nx2, S.ny2
end

-- Minkowski difference of two rects (another rect).
local function rect_getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
  return x2 - x1 - w1, y2 - y1 - h1, w1 + w2, h1 + h2
end

local function rect_containsPoint(x, y, w, h, px, py)
  return px - x > DELTA and py - y > DELTA and x + w - px > DELTA and y + h - py > DELTA
end

local function rect_isIntersecting(x1, y1, w1, h1, x2, y2, w2, h2)
  return x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1
end

local function rect_getSquareDistance(x1, y1, w1, h1, x2, y2, w2, h2)
  local dx = x1 - x2 + (w1 - w2) / 2
  local dy = y1 - y2 + (h1 - h2) / 2
  return dx * dx + dy * dy
end

-- The collision test is bump's rect.detectCollision, done in C in doubles
-- (shove2_bump_detect: bump's operations in bump's order, so the same bits
-- as in Lua). In Lua, its dozen numbers live across many branches, and
-- LuaJIT (2.1.0-beta3) gives up compiling the side traces of the move
-- ("NYI: register coalescing too complex") and retries them forever; an FFI
-- call with three pointers compiles. The moving rect and its goal are
-- MOVE_RECT and MOVE_GOAL, the rect tested against OTHER_RECT, the results HITS.
--
-- The structs are read and written through flat views made once (MOVE,
-- HITD, HITB): `rect.min[0]` on a struct makes a reference object per
-- access when LuaJIT interprets the code; a plain array index makes none.
local MOVE = ffi.new('double[6]') -- x, y, w, h, goal x, goal y
local MOVE_RECT = ffi.cast('shove2_bump_rect *', MOVE)
local MOVE_GOAL = MOVE + 4
assert(ffi.sizeof('shove2_bump_rect') == 32 and ffi.offsetof('shove2_bump_rect', 'size') == 16,
  'shove.bump: shove2_bump_rect is not { x, y, w, h }')
local OTHER = ffi.new('double[4]')
local OTHER_RECT = ffi.cast('shove2_bump_rect *', OTHER)
-- A hit as doubles: ti, normal x, y, touch x, y at HIT_STRIDE * j + 0 .. 4,
-- and `overlaps` as a byte at HIT_BYTES * j + HIT_OVERLAPS.
local HIT_BYTES = ffi.sizeof('shove2_bump_hit')
local HIT_STRIDE = HIT_BYTES / 8
local HIT_OVERLAPS = ffi.offsetof('shove2_bump_hit', 'overlaps')
assert(ffi.offsetof('shove2_bump_hit', 'normal') == 8 and ffi.offsetof('shove2_bump_hit', 'touch') == 24
  and HIT_BYTES % 8 == 0, 'shove.bump: shove2_bump_hit is not { ti, normal, touch, overlaps }')
-- The collisions of one projection (shove2_bump_detect_all) and which
-- candidates they are; read before anything else can project.
local hitsCap = 64
local HITS, HITD, HITB, FOUND
local function growHits(count)
  while hitsCap < count do hitsCap = hitsCap * 2 end
  HITS = ffi.new('shove2_bump_hit[?]', hitsCap)
  HITD = ffi.cast('double *', HITS)
  HITB = ffi.cast('uint8_t *', HITS)
  FOUND = ffi.new('uint32_t[?]', hitsCap)
end
growHits(hitsCap)

local function setMove(x, y, w, h, goalX, goalY)
  local M = MOVE
  M[0], M[1], M[2], M[3], M[4], M[5] = x, y, w, h, goalX, goalY
end

-- A collision table from hit j, the move and the other rect: all of bump's
-- fields in one constructor (LuaJIT then sizes it once).
local function newCollision(j, item, other, responseName, ox, oy, ow, oh)
  local M, D, h = MOVE, HITD, HIT_STRIDE * j
  local x, y = M[0], M[1]
  return {
    item = item,
    other = other,
    type = responseName,
    overlaps = HITB[HIT_BYTES * j + HIT_OVERLAPS] ~= 0,
    ti = D[h],
    move = { x = M[4] - x, y = M[5] - y },
    normal = { x = D[h + 1], y = D[h + 2] },
    touch = { x = D[h + 3], y = D[h + 4] },
    itemRect = { x = x, y = y, w = M[2], h = M[3] },
    otherRect = { x = ox, y = oy, w = ow, h = oh },
    slide = nil,
    bounce = nil,
  }
end

local function rect_detectCollision(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
  goalX = goalX or x1
  goalY = goalY or y1
  setMove(x1, y1, w1, h1, goalX, goalY)
  local O = OTHER
  O[0], O[1], O[2], O[3] = x2, y2, w2, h2
  if not C.shove2_bump_detect(MOVE_RECT, MOVE_GOAL, OTHER_RECT, HITS) then return nil end
  return newCollision(0, nil, nil, nil, x2, y2, w2, h2)
end

------------------------------------------------------------------------
-- Grid functions (bump's cells: 1-based, cellSize wide)
------------------------------------------------------------------------

local function grid_toWorld(cellSize, cx, cy)
  return (cx - 1) * cellSize, (cy - 1) * cellSize
end

local function grid_toCell(cellSize, x, y)
  return floor(x / cellSize) + 1, floor(y / cellSize) + 1
end

local function grid_toCellRect(cellSize, x, y, w, h)
  local cx, cy = grid_toCell(cellSize, x, y)
  local cr, cb = ceil((x + w) / cellSize), ceil((y + h) / cellSize)
  return cx, cy, cr - cx + 1, cb - cy + 1
end

------------------------------------------------------------------------
-- Responses
------------------------------------------------------------------------

local EMPTY = setmetatable({}, { __newindex = function() error('shove.bump: this empty list is shared; copy it first', 2) end })

local function touch(world, col, x, y, w, h, goalX, goalY, filter)
  return col.touch.x, col.touch.y, EMPTY, 0
end

local function cross(world, col, x, y, w, h, goalX, goalY, filter)
  local cols, len = world:project(col.item, x, y, w, h, goalX, goalY, filter)
  return goalX, goalY, cols, len
end

local function slide(world, col, x, y, w, h, goalX, goalY, filter)
  goalX = goalX or x
  goalY = goalY or y

  local tch, move = col.touch, col.move
  local sx, sy = tch.x, tch.y
  if move.x ~= 0 or move.y ~= 0 then
    if col.normal.x == 0 then
      sx = goalX
    else
      sy = goalY
    end
  end

  col.slide = { x = sx, y = sy }

  local cols, len = world:project(col.item, tch.x, tch.y, w, h, sx, sy, filter)
  return sx, sy, cols, len
end

local function bounce(world, col, x, y, w, h, goalX, goalY, filter)
  goalX = goalX or x
  goalY = goalY or y

  local tch, move = col.touch, col.move
  local tx, ty = tch.x, tch.y
  local bx, by = tx, ty

  if move.x ~= 0 or move.y ~= 0 then
    local bnx, bny = goalX - tx, goalY - ty
    if col.normal.x == 0 then bny = -bny else bnx = -bnx end
    bx, by = tx + bnx, ty + bny
  end

  col.bounce = { x = bx, y = by }

  local cols, len = world:project(col.item, tx, ty, w, h, bx, by, filter)
  return bx, by, cols, len
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
    .. '. Use world:add(item, x,y,w,h) to add it first.', 3)
end

-- A rect handed to the grid (x, y, w, h), and a query box (l, t, r, b).
local RECT = ffi.new('double[4]')
local RECT_C = ffi.cast('shove2_bump_rect *', RECT)
local QUERY = ffi.new('double[4]')
local QUERY_HI = QUERY + 2
local INDEX = ffi.new('uint32_t[1]')

-- Ids of the items whose padded rect meets the padded rect [l, r] x [t, b],
-- in a buffer of the world's buffer stack (queries may nest through
-- filters; growLevel makes a level). Returns the buffer, the count and the
-- level of the stack (whose `which` and `names` the move's filter pass
-- fills); release with releaseBuffer.
local function broad(self, l, t, r, b)
  local level = self._bufTop + 1
  if level > 32 then level = 1 end -- left over by errors raised in filters
  self._bufTop = level
  local buf, cap = self._bufs[level], self._bufCaps[level]
  if not buf then
    cap = 64
    buf = growLevel(self, level, cap)
  end
  local Q = QUERY
  Q[0], Q[1], Q[2], Q[3] = l, t, r, b
  local n = C.shove2_bump_grid_query(self._grid, Q, QUERY_HI, buf, cap)
  if n > cap then
    cap = n + n / 2
    buf = growLevel(self, level, cap)
    n = C.shove2_bump_grid_query(self._grid, Q, QUERY_HI, buf, cap)
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
    -- no loop for the common one entry (see buildSlides)
    local n = self._listLens[top]
    if n == 1 then
      list[1] = nil
    elseif n > 1 then
      for i = 1, n do list[i] = nil end
    end
  end
  return list, top
end

-- A pooled collision table for a projection inside a check (the check
-- copies the one it keeps into a table of the caller's; see World:check).
local function takeCollision(self)
  local top = self._colTop + 1
  self._colTop = top
  local col = self._cols[top]
  if not col then
    col = newCollision(0, nil, nil, nil, 0, 0, 0, 0)
    self._cols[top] = col
    self._pooled[col] = true
  end
  return col
end

-- The collision of hit j: written into the pooled table col, or into a
-- new table when col is nil.
local function makeCollision(col, j, item, other, responseName, ox, oy, ow, oh)
  if not col then return newCollision(j, item, other, responseName, ox, oy, ow, oh) end
  local M, D, h = MOVE, HITD, HIT_STRIDE * j
  local x, y = M[0], M[1]
  col.item, col.other, col.type = item, other, responseName
  col.overlaps, col.ti = HITB[HIT_BYTES * j + HIT_OVERLAPS] ~= 0, D[h]
  col.slide, col.bounce = nil, nil
  local m, n, t, ir, orr = col.move, col.normal, col.touch, col.itemRect, col.otherRect
  m.x, m.y = M[4] - x, M[5] - y
  n.x, n.y = D[h + 1], D[h + 2]
  t.x, t.y = D[h + 3], D[h + 4]
  ir.x, ir.y, ir.w, ir.h = x, y, M[2], M[3]
  orr.x, orr.y, orr.w, orr.h = ox, oy, ow, oh
  return col
end

-- A table of the caller's with the fields of the pooled collision col.
local function copyCollision(col)
  local m, n, t, ir, orr = col.move, col.normal, col.touch, col.itemRect, col.otherRect
  return {
    item = col.item,
    other = col.other,
    type = col.type,
    overlaps = col.overlaps,
    ti = col.ti,
    move = { x = m.x, y = m.y },
    normal = { x = n.x, y = n.y },
    touch = { x = t.x, y = t.y },
    itemRect = { x = ir.x, y = ir.y, w = ir.w, h = ir.h },
    otherRect = { x = orr.x, y = orr.y, w = orr.w, h = orr.h },
    slide = nil,
    bounce = nil,
  }
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
        local ir, cr, pr = c.itemRect, c.otherRect, p.otherRect
        local cd = rect_getSquareDistance(ir.x, ir.y, ir.w, ir.h, cr.x, cr.y, cr.w, cr.h)
        local pd = rect_getSquareDistance(ir.x, ir.y, ir.w, ir.h, pr.x, pr.y, pr.w, pr.h)
        before = cd < pd
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
-- ids are the candidates detect_all looked at, names their responses (nil:
-- all 'slide', the default filter's). Returns the count.
local function collect(self, list, len, item, ids, names, pooled, visitedOnly)
  local items, rects, visit, serial = self._items, self._rects, self._visit, self._serial
  local count = 0
  for j = 0, len - 1 do
    local i = FOUND[j]
    local idx = ids[2 * i]
    if not (visitedOnly and visit[idx] == serial) then
      local k = idx * 4
      local col = pooled and takeCollision(self) or nil
      count = count + 1
      list[count] = makeCollision(col, j, item, items[idx], names and names[i + 1] or 'slide',
        rects[k], rects[k + 1], rects[k + 2], rects[k + 3])
    end
  end
  return count
end

-- Kept out of the JIT: the branch to here is taken by projections that
-- collide, and LuaJIT (2.1.0-beta3) cannot compile a side trace from it,
-- with the filter's numbers live ("register coalescing too complex"): it
-- would retry forever. Compiled on its own, collect costs more here than it
-- gains: the filter's loop then fails the same way.
jit.off(collect)

-- Collisions of the rect (x,y,w,h) moving to (goalX, goalY) with the items
-- the filter names a response for, sorted; `item` itself is skipped. The
-- list and its tables are the caller's, as in bump, except for the
-- projections of World:check (recognised by its filter), which use the
-- world's pools: the check copies the one collision it keeps.
function World:project(item, x, y, w, h, goalX, goalY, filter)
  assertIsRect(x, y, w, h)
  goalX = goalX or x
  goalY = goalY or y
  assertIsPoint(goalX, goalY, 'the goal')

  local pooled = filter == self._visitedFilter
  local userFilter = pooled and self._userFilter or filter or defaultFilter

  local selfIndex = self._index[item]
  local tl, tt = min(goalX, x), min(goalY, y)
  local tr, tb = max(goalX + w, x + w), max(goalY + h, y + h)
  local buf, n, level = broad(self, tl, tt, tr, tb)
  local list, listIndex
  if pooled then
    list, listIndex = takeList(self)
  else
    list = {}
  end
  local len = 0
  -- Most moves meet nothing but the mover itself: no filter, no C call.
  if n > 1 or (n == 1 and buf[0] ~= selfIndex) then
    -- With the default filter (every item 'slide') C looks at the whole
    -- buffer, and the item itself and visited items are left out after;
    -- else the filter picks the candidates first, as in bump.
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
      setMove(x, y, w, h, goalX, goalY)
      local found = C.shove2_bump_detect_all(MOVE_RECT, MOVE_GOAL, self._rectsC, ids, m,
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

-- bump keeps a cell table per occupied cell, in weak rows: a cell that
-- empties stays counted until the garbage collector takes it. This module
-- keeps no cells; countCells rebuilds the same picture from the items when
-- it is called (cells emptied since the last call lose their strong
-- reference and stay in the weak rows until collected), so it costs a walk
-- over every item and nothing anywhere else.
function World:countCells()
  local rows, strong = self._cellRows, {}
  local cellSize, rects = self.cellSize, self._rects
  for idx, _ in pairs(self._items) do
    local cl, ct, cw, ch = grid_toCellRect(cellSize, rects[idx * 4], rects[idx * 4 + 1],
      rects[idx * 4 + 2], rects[idx * 4 + 3])
    for cy = ct, ct + ch - 1 do
      local row = rows[cy]
      if not row then
        row = setmetatable({}, { __mode = 'v' })
        rows[cy] = row
      end
      for cx = cl, cl + cw - 1 do
        local cell = row[cx]
        if not cell then
          cell = { x = cx, y = cy }
          row[cx] = cell
        end
        strong[cell] = true
      end
    end
  end
  self._cellsInUse = strong
  local count = 0
  for _, row in pairs(rows) do
    for _ in pairs(row) do
      count = count + 1
    end
  end
  return count
end

function World:getRect(item)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'getting its rect') end
  local r, k = self._rects, idx * 4
  return r[k], r[k + 1], r[k + 2], r[k + 3]
end

function World:toWorld(cx, cy)
  return grid_toWorld(self.cellSize, cx, cy)
end

function World:toCell(x, y)
  return grid_toCell(self.cellSize, x, y)
end

------------------------------------------------------------------------
-- Queries
------------------------------------------------------------------------

function World:queryRect(x, y, w, h, filter)
  assertIsRect(x, y, w, h)
  local buf, n = broad(self, x, y, x + w, y + h)
  local items, len = {}, 0
  local all, rects = self._items, self._rects
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 4
    if rect_isIntersecting(x, y, w, h, rects[k], rects[k + 1], rects[k + 2], rects[k + 3]) and (not filter or filter(item)) then
      len = len + 1
      items[len] = item
    end
  end
  releaseBuffer(self)
  return items, len
end

function World:queryPoint(x, y, filter)
  assertIsPoint(x, y, 'the point')
  local buf, n = broad(self, x, y, x, y)
  local items, len = {}, 0
  local all, rects = self._items, self._rects
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 4
    if rect_containsPoint(rects[k], rects[k + 1], rects[k + 2], rects[k + 3], x, y) and (not filter or filter(item)) then
      len = len + 1
      items[len] = item
    end
  end
  releaseBuffer(self)
  return items, len
end

local function getInfoAboutItemsTouchedBySegment(self, x1, y1, x2, y2, filter)
  assertIsPoint(x1, y1, 'the segment start')
  assertIsPoint(x2, y2, 'the segment end')
  local buf, n = broad(self, min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
  local info, len = {}, 0
  local all, rects = self._items, self._rects
  for i = 0, n - 1 do
    local idx = buf[i]
    local item = all[idx]
    local k = idx * 4
    local x, y, w, h = rects[k], rects[k + 1], rects[k + 2], rects[k + 3]
    local ti1, ti2 = rect_getSegmentIntersectionIndices(x, y, w, h, x1, y1, x2, y2, 0, 1)
    if ti1 and ((0 < ti1 and ti1 < 1) or (0 < ti2 and ti2 < 1)) and (not filter or filter(item)) then
      -- sorted by where the infinite line enters, as bump does
      local tii0, tii1 = rect_getSegmentIntersectionIndices(x, y, w, h, x1, y1, x2, y2, -huge, huge)
      len = len + 1
      info[len] = { item = item, ti1 = ti1, ti2 = ti2, weight = min(tii0, tii1) }
    end
  end
  releaseBuffer(self)
  table.sort(info, sortByWeight)
  return info, len
end

function World:querySegment(x1, y1, x2, y2, filter)
  local info, len = getInfoAboutItemsTouchedBySegment(self, x1, y1, x2, y2, filter)
  local items = {}
  for i = 1, len do
    items[i] = info[i].item
  end
  return items, len
end

function World:querySegmentWithCoords(x1, y1, x2, y2, filter)
  local info, len = getInfoAboutItemsTouchedBySegment(self, x1, y1, x2, y2, filter)
  local dx, dy = x2 - x1, y2 - y1
  for i = 1, len do
    local it = info[i]
    local ti1, ti2 = it.ti1, it.ti2
    it.weight = nil
    it.x1 = x1 + dx * ti1
    it.y1 = y1 + dy * ti1
    it.x2 = x1 + dx * ti2
    it.y2 = y1 + dy * ti2
  end
  return info, len
end

------------------------------------------------------------------------
-- Main methods
------------------------------------------------------------------------

local function refused(status, what)
  error(('shove.bump: %s: %s'):format(what, ffi.string(C.shove_status_string(status))), 3)
end

-- The grid's rects, read in place (x, y, w, h of item i at 4 i); an add may
-- move them.
local function fetchRects(self)
  local rects = C.shove2_bump_grid_rects(self._grid)
  self._rectsC = rects
  self._rects = ffi.cast('double *', rects)
end

function World:add(item, x, y, w, h)
  if item == nil then error('shove.bump: an item cannot be nil', 2) end
  if self._index[item] then
    error('Item ' .. tostring(item) .. ' added to the world twice.', 2)
  end
  assertIsRect(x, y, w, h)

  local R = RECT
  R[0], R[1], R[2], R[3] = x, y, w, h
  local status = C.shove2_bump_grid_add(self._grid, RECT_C, INDEX)
  if status ~= SHOVE_OK then refused(status, 'could not add the item') end
  local idx = INDEX[0]
  self._index[item] = idx
  self._items[idx] = item
  fetchRects(self)
  self._count = self._count + 1
  return item
end

function World:remove(item)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being removed') end
  C.shove2_bump_grid_remove(self._grid, idx)
  self._index[item] = nil
  self._items[idx] = nil
  self._count = self._count - 1
end

function World:update(item, x2, y2, w2, h2)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being updated') end
  local r, k = self._rects, idx * 4
  local x1, y1, w1, h1 = r[k], r[k + 1], r[k + 2], r[k + 3]
  w2, h2 = w2 or w1, h2 or h1
  assertIsRect(x2, y2, w2, h2)
  if x1 ~= x2 or y1 ~= y2 or w1 ~= w2 or h1 ~= h2 then
    local R = RECT
    R[0], R[1], R[2], R[3] = x2, y2, w2, h2
    local status = C.shove2_bump_grid_update(self._grid, idx, RECT_C)
    if status ~= SHOVE_OK then refused(status, 'the C grid refused the rect') end
  end
end

-- The common check or move in one C call (shove2_bump_grid_move): with
-- bump's default filter and slide response, every item answers 'slide', so
-- C can run bump's loop of projections and slides itself, and the update
-- of the rect after it. Its collisions come back in SLIDES, read through
-- flat views as the hits are.
local slidesCap, idsCap = 16, 256
local SLIDES, SLIDED, SLIDEW, SLIDEB, SLIDE_IDS
local COL_BYTES = ffi.sizeof('shove2_bump_col')
local COL_STRIDE, COL_WORDS = COL_BYTES / 8, COL_BYTES / 4
local COL_OTHER = ffi.offsetof('shove2_bump_col', 'other') / 4
local COL_HIT = ffi.offsetof('shove2_bump_col', 'hit') / 8
local COL_OVERLAPS = ffi.offsetof('shove2_bump_col', 'hit') + HIT_OVERLAPS
local COL_FROM = ffi.offsetof('shove2_bump_col', 'from') / 8
local COL_MOVE = ffi.offsetof('shove2_bump_col', 'move') / 8
local COL_SLIDE = ffi.offsetof('shove2_bump_col', 'slide') / 8
assert(COL_BYTES % 8 == 0 and ffi.offsetof('shove2_bump_col', 'hit') % 8 == 0,
  'shove.bump: shove2_bump_col is not laid out in doubles')
local SLIDE_GOAL = ffi.new('double[2]')
local SLIDE_ACTUAL = ffi.new('double[2]')
local SLIDE_COUNT = ffi.new('uint32_t[1]')
local function growSlides(cols, ids)
  slidesCap, idsCap = cols, ids
  SLIDES = ffi.new('shove2_bump_col[?]', slidesCap)
  SLIDED = ffi.cast('double *', SLIDES)
  SLIDEW = ffi.cast('uint32_t *', SLIDES)
  SLIDEB = ffi.cast('uint8_t *', SLIDES)
  SLIDE_IDS = ffi.new('uint32_t[?]', idsCap)
end
growSlides(slidesCap, idsCap)

-- slide tables of the world's pooled collisions, kept beside them for the
-- next time (reuse mode)
local spareSlides = setmetatable({}, { __mode = 'k' })

-- The collisions of the default move are the caller's, and most games read
-- one or two of their fields: each gets bump's five plain fields (item,
-- other, type, overlaps, ti) and `normal` (the one games read most: made at
-- once, it spares them the metatable's lookup) at once, and its other
-- vectors and rects (move, touch, itemRect, otherRect, slide) when first
-- read, from numbers kept in a metatable of its own (at these places), so
-- that a collision costs half the memory. A field read is then a plain
-- field: the same table each time, writes stay.
local LAZY_AT = { move = 1, normal = 3, touch = 5, itemRect = 7, otherRect = 11, slide = 15 }
local function lazyField(col, key)
  local at = LAZY_AT[key]
  if not at then return nil end
  local n = getmetatable(col)
  local v
  if at == 7 or at == 11 then
    v = { x = n[at], y = n[at + 1], w = n[at + 2], h = n[at + 3] }
  else
    v = { x = n[at], y = n[at + 1] }
  end
  rawset(col, key, v)
  return v
end

-- Collision j of SLIDES as a table: the world's pooled one when `reuse`,
-- else a new one of the caller's (see lazyField).
local function slideCollision(self, item, j, reuse)
  local D, items, rects = SLIDED, self._items, self._rects
  local c, h, f = COL_STRIDE * j, COL_STRIDE * j + COL_HIT, COL_STRIDE * j + COL_FROM
  local idx = SLIDEW[COL_WORDS * j + COL_OTHER]
  local k = idx * 4
  local m, sl = c + COL_MOVE, c + COL_SLIDE
  if not reuse then
    return setmetatable({
      item = item,
      other = items[idx],
      type = 'slide',
      overlaps = SLIDEB[COL_BYTES * j + COL_OVERLAPS] ~= 0,
      ti = D[h],
      normal = { x = D[h + 1], y = D[h + 2] },
    }, {
      __index = lazyField,
      D[m], D[m + 1], -- move
      D[h + 1], D[h + 2], -- normal
      D[h + 3], D[h + 4], -- touch
      D[f], D[f + 1], D[f + 2], D[f + 3], -- itemRect
      rects[k], rects[k + 1], rects[k + 2], rects[k + 3], -- otherRect
      D[sl], D[sl + 1], -- slide
    })
  end
  local col = takeCollision(self)
  col.item, col.other, col.type = item, items[idx], 'slide'
  col.overlaps, col.ti = SLIDEB[COL_BYTES * j + COL_OVERLAPS] ~= 0, D[h]
  local mv, n, t, ir, orr = col.move, col.normal, col.touch, col.itemRect, col.otherRect
  mv.x, mv.y = D[m], D[m + 1]
  n.x, n.y = D[h + 1], D[h + 2]
  t.x, t.y = D[h + 3], D[h + 4]
  ir.x, ir.y, ir.w, ir.h = D[f], D[f + 1], D[f + 2], D[f + 3]
  orr.x, orr.y, orr.w, orr.h = rects[k], rects[k + 1], rects[k + 2], rects[k + 3]
  local st = spareSlides[col]
  if not st then
    st = {}
    spareSlides[col] = st
  end
  st.x, st.y = D[sl], D[sl + 1]
  col.slide, col.bounce = st, nil
  return col
end

-- The collision tables of SLIDES[0 .. len-1] (the world's pooled ones when
-- it reuses them), in a list. One collision, the common case, goes without
-- a loop: LuaJIT cannot compile a loop inside the side trace that the
-- moves that collide take, and would run it in the interpreter.
local function buildSlides(self, item, len, reuse)
  local cols, listIndex
  if reuse then
    cols, listIndex = takeList(self)
    self._listLens[listIndex] = len
  end
  if len == 1 then
    local col = slideCollision(self, item, 0, reuse)
    if reuse then
      cols[1] = col
      return cols
    end
    return { col }
  end
  cols = cols or {}
  for j = 0, len - 1 do
    cols[j + 1] = slideCollision(self, item, j, reuse)
  end
  return cols
end

-- World:check through shove2_bump_grid_move; nil when C asks for more
-- room than the buffers have (the caller then takes the general path).
-- With `move`, C also moves the rect (World:move's update). Nothing but
-- the goal goes in and the count and end point come out, so LuaJIT
-- compiles the branch of the moves that collide as a side trace of the
-- common move.
local function checkSliding(self, item, idx, goalX, goalY, move)
  local G = SLIDE_GOAL
  G[0], G[1] = goalX, goalY
  local status = C.shove2_bump_grid_move(self._grid, idx, G, move, SLIDE_IDS, idsCap, SLIDES, slidesCap,
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
  local x, y = SLIDE_ACTUAL[0], SLIDE_ACTUAL[1]
  local reuse = self.reuseCollisions
  if reuse and self._depth == 0 then resetPools(self) end
  local cols
  if len > 0 then
    cols = buildSlides(self, item, len, reuse)
  else
    cols = reuse and EMPTY or {}
  end
  return x, y, cols, len
end

function World:check(item, goalX, goalY, filter)
  local idx = item ~= nil and self._index[item]
  if not idx then missing(item, 'being checked') end
  if (filter == nil or filter == defaultFilter) and self.responses.slide == slide then
    local r = self._rects
    goalX = goalX or r[idx * 4]
    goalY = goalY or r[idx * 4 + 1]
    assertIsPoint(goalX, goalY, 'the goal')
    local x, y, cols, len = checkSliding(self, item, idx, goalX, goalY, false)
    if x then return x, y, cols, len end
  end
  -- The item's rect is read where needed rather than kept in locals (fewer
  -- numbers live across the calls below).
  local k = idx * 4

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

  local r = self._rects
  local projected, projectedLen = self:project(item, r[k], r[k + 1], r[k + 2], r[k + 3], goalX, goalY,
    visitedFilter)
  while projectedLen > 0 do
    local col = projected[1]
    if not cols then
      if reuse then cols, listIndex = takeList(self) else cols = {} end
    end
    -- the pooled tables of this check's projections stay with the world;
    -- the caller gets its own, as in bump (unless it asked for reuse)
    if not reuse and self._pooled[col] then col = copyCollision(col) end
    len = len + 1
    cols[len] = col
    local otherIndex = index[col.other]
    if otherIndex then visit[otherIndex] = serial end

    local response = responses[col.type]
    if not response then
      error(('Unknown collision type: %s (%s)'):format(tostring(col.type), type(col.type)), 2)
    end
    r = self._rects
    goalX, goalY, projected, projectedLen = response(self, col, r[k], r[k + 1], r[k + 2], r[k + 3], goalX, goalY,
      visitedFilter)
  end

  if listIndex then self._listLens[listIndex] = len end
  self._userFilter, self._serial = savedFilter, savedSerial
  self._depth = depth
  r = self._rects
  if not cols then cols = reuse and EMPTY or {} end
  return goalX or r[k], goalY or r[k + 1], cols, len
end

function World:move(item, goalX, goalY, filter)
  local idx = item ~= nil and self._index[item]
  if idx and (filter == nil or filter == defaultFilter) and self.responses.slide == slide then
    -- World:check's fast path, with the update inside
    local r = self._rects
    goalX = goalX or r[idx * 4]
    goalY = goalY or r[idx * 4 + 1]
    assertIsPoint(goalX, goalY, 'the goal')
    local x, y, cols, len = checkSliding(self, item, idx, goalX, goalY, true)
    if x then return x, y, cols, len end
  end
  local actualX, actualY, cols, len = self:check(item, goalX, goalY, filter)
  self:update(item, actualX, actualY)
  return actualX, actualY, cols, len
end

------------------------------------------------------------------------
-- Public library functions
------------------------------------------------------------------------

bump.newWorld = function(cellSize)
  cellSize = cellSize or 64
  assertIsPositiveNumber(cellSize, 'cellSize')

  local out = ffi.new('shove2_bump_grid*[1]')
  -- the grid's cells are bump's (a cellSize beyond doubles' range gets the
  -- largest finite one: every item in one cell, as bump's would be)
  local status = C.shove2_bump_grid_create(min(cellSize, 1.7976931348623157e308), nil, out)
  if status ~= SHOVE_OK then
    error('shove.bump: could not create a world: ' .. ffi.string(C.shove_status_string(status)), 2)
  end
  local grid = ffi.gc(out[0], C.shove2_bump_grid_destroy)

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
    -- items by their index in the grid, and the grid's rects
    _index = {},
    _items = {},
    _rects = false, -- x, y, w, h of item i at 4 i (see fetchRects)
    _rectsC = false, -- the same as shove2_bump_rect *
    _count = 0,
    -- countCells' picture of bump's cells
    _cellRows = {},
    _cellsInUse = {},
    -- move and check state: visited stamps, pooled lists and collisions
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

  -- The filter check hands to responses: it skips the items the check has
  -- already collided with, then asks the check's filter. World:project
  -- recognises it and does both without calling it.
  world._visitedFilter = function(itm, other)
    local i = world._index[other]
    if i and world._visit[i] == world._serial then return false end
    return world._userFilter(itm, other)
  end

  fetchRects(world)

  world:addResponse('touch', touch)
  world:addResponse('cross', cross)
  world:addResponse('slide', slide)
  world:addResponse('bounce', bounce)

  return world
end

bump.rect = {
  getNearestCorner = rect_getNearestCorner,
  getSegmentIntersectionIndices = rect_getSegmentIntersectionIndices,
  getDiff = rect_getDiff,
  containsPoint = rect_containsPoint,
  isIntersecting = rect_isIntersecting,
  getSquareDistance = rect_getSquareDistance,
  detectCollision = rect_detectCollision,
}

bump.responses = {
  touch = touch,
  cross = cross,
  slide = slide,
  bounce = bounce,
}

return bump
