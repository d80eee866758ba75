-- A bump-style world in pure Lua: the reference shove.bump is compared with
-- (results in the specs, speed and garbage in bench_bump.lua). It follows
-- bump.lua's documented design: a grid of cells (cellSize wide, 1-based)
-- holding items in weak tables; a move gathers the items of every cell under
-- the rect swept by the move, asks the filter about each, tests each with the
-- rect arithmetic below, sorts the collisions by ti then distance, and lets
-- the response of the first one (touch, cross, slide, bounce) project again,
-- skipping the items already met. Like bump, it makes new tables for each of
-- these steps, and its arithmetic is plain Lua on locals (as bump's is), so
-- that LuaJIT compiles it as it compiles bump: the reference must be neither
-- slower nor faster than bump for reasons of its own. bench_bump.lua can also
-- time bump.lua itself (BUMP_LUA=path/to/bump.lua) in the same run.
local floor, ceil, min, max, abs = math.floor, math.ceil, math.min, math.max, math.abs
local huge = math.huge
local DELTA = 1e-10 -- bump's margin for comparisons

-- The rect arithmetic, with bump's formulas (see bump.rect in the README):
-- Minkowski difference, a Liang-Barsky clip of the move against it, and the
-- touch point and normal of the first contact.
local rect = {}

function rect.getSquareDistance(x1, y1, w1, h1, x2, y2, w2, h2)
  local dx = x1 - x2 + (w1 - w2) / 2
  local dy = y1 - y2 + (h1 - h2) / 2
  return dx * dx + dy * dy
end

function rect.isIntersecting(x1, y1, w1, h1, x2, y2, w2, h2)
  return x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1
end

local function strictlyInside(x, y, w, h, px, py)
  return px - x > DELTA and py - y > DELTA and x + w - px > DELTA and y + h - py > DELTA
end

local function closer(v, a, b)
  if abs(a - v) < abs(b - v) then return a end
  return b
end

-- Clips the segment from the origin by (dx, dy) to the rect, within
-- [lo, hi]; returns nil when it misses, else the entry and exit parameters
-- and the normals of the sides they are on.
local function clip(x, y, w, h, dx, dy, lo, hi)
  local nx1, ny1, nx2, ny2 = 0, 0, 0, 0
  -- left, right, top, bottom: p is the rate towards the outside, q the room
  -- (0 - x, not -x: the segment starts at 0, and -x would turn 0 into -0)
  local sides = 0
  while sides < 4 do
    sides = sides + 1
    local p, q, nx, ny
    if sides == 1 then p, q, nx, ny = -dx, 0 - x, -1, 0
    elseif sides == 2 then p, q, nx, ny = dx, x + w, 1, 0
    elseif sides == 3 then p, q, nx, ny = -dy, 0 - y, 0, -1
    else p, q, nx, ny = dy, y + h, 0, 1 end
    if p == 0 then
      if q <= 0 then return nil end
    else
      local r = q / p
      if p < 0 then
        if r > hi then return nil end
        if r > lo then lo, nx1, ny1 = r, nx, ny end
      else
        if r < lo then return nil end
        if r < hi then hi, nx2, ny2 = r, nx, ny end
      end
    end
  end
  return lo, hi, nx1, ny1, nx2, ny2
end

function rect.detectCollision(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
  local dx, dy = goalX - x1, goalY - y1
  local x, y, w, h = x2 - x1 - w1, y2 - y1 - h1, w1 + w2, h1 + h2
  local ti, nx, ny, tx, ty, overlaps
  if strictlyInside(x, y, w, h, 0, 0) then
    local cx, cy = closer(0, x, x + w), closer(0, y, y + h)
    ti = -min(w1, abs(cx)) * min(h1, abs(cy))
    overlaps = true
    if dx == 0 and dy == 0 then
      if abs(cx) < abs(cy) then cy = 0 else cx = 0 end
      nx = cx > 0 and 1 or (cx < 0 and -1 or 0)
      ny = cy > 0 and 1 or (cy < 0 and -1 or 0)
      tx, ty = x1 + cx, y1 + cy
    else
      local t0, _, n0x, n0y = clip(x, y, w, h, dx, dy, -huge, 1)
      if not t0 then return nil end
      nx, ny = n0x, n0y
      tx, ty = x1 + dx * t0, y1 + dy * t0
    end
  else
    local t0, t1, n0x, n0y = clip(x, y, w, h, dx, dy, -huge, huge)
    if not (t0 and t0 < 1 and abs(t0 - t1) >= DELTA and (0 < t0 + DELTA or 0 == t0 and t1 > 0)) then
      return nil
    end
    ti, nx, ny, overlaps = t0, n0x, n0y, false
    tx, ty = x1 + dx * t0, y1 + dy * t0
  end
  return {
    overlaps = overlaps, ti = ti,
    move = { x = dx, y = dy }, normal = { x = nx, y = ny }, touch = { x = tx, y = ty },
    itemRect = { x = x1, y = y1, w = w1, h = h1 }, otherRect = { x = x2, y = y2, w = w2, h = h2 },
  }
end

local ref = {}

local function toCell(cellSize, x, y)
  return floor(x / cellSize) + 1, floor(y / cellSize) + 1
end

local function toCellRect(cellSize, x, y, w, h)
  local cx, cy = toCell(cellSize, x, y)
  local cr, cb = ceil((x + w) / cellSize), ceil((y + h) / cellSize)
  return cx, cy, cr - cx + 1, cb - cy + 1
end

local World = {}
local World_mt = { __index = World }

local function addToCell(self, item, cx, cy)
  local row = self.rows[cy]
  if not row then
    row = setmetatable({}, { __mode = 'v' })
    self.rows[cy] = row
  end
  local cell = row[cx]
  if not cell then
    cell = { itemCount = 0, x = cx, y = cy, items = setmetatable({}, { __mode = 'k' }) }
    row[cx] = cell
  end
  self.nonEmptyCells[cell] = true
  if not cell.items[item] then
    cell.items[item] = true
    cell.itemCount = cell.itemCount + 1
  end
end

local function removeFromCell(self, item, cx, cy)
  local row = self.rows[cy]
  local cell = row and row[cx]
  if not cell or not cell.items[item] then return end
  cell.items[item] = nil
  cell.itemCount = cell.itemCount - 1
  if cell.itemCount == 0 then self.nonEmptyCells[cell] = nil end
end

local function itemsInCellRect(self, cl, ct, cw, ch)
  local dict = {}
  for cy = ct, ct + ch - 1 do
    local row = self.rows[cy]
    if row then
      for cx = cl, cl + cw - 1 do
        local cell = row[cx]
        if cell and cell.itemCount > 0 then
          for item in pairs(cell.items) do dict[item] = true end
        end
      end
    end
  end
  return dict
end

local function byTiAndDistance(a, b)
  if a.ti == b.ti then
    local ir, ar, br = a.itemRect, a.otherRect, b.otherRect
    local ad = rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, ar.x, ar.y, ar.w, ar.h)
    local bd = rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, br.x, br.y, br.w, br.h)
    return ad < bd
  end
  return a.ti < b.ti
end

local function touch(world, col)
  return col.touch.x, col.touch.y, {}, 0
end

local function cross(world, col, x, y, w, h, goalX, goalY, filter)
  local cols, len = world:project(col.item, x, y, w, h, goalX, goalY, filter)
  return goalX, goalY, cols, len
end

local function slide(world, col, x, y, w, h, goalX, goalY, filter)
  local t, m = col.touch, col.move
  local sx, sy = t.x, t.y
  if m.x ~= 0 or m.y ~= 0 then
    if col.normal.x == 0 then sx = goalX else sy = goalY end
  end
  col.slide = { x = sx, y = sy }
  local cols, len = world:project(col.item, t.x, t.y, w, h, sx, sy, filter)
  return sx, sy, cols, len
end

local function bounce(world, col, x, y, w, h, goalX, goalY, filter)
  local t, m = col.touch, col.move
  local bx, by = t.x, t.y
  if m.x ~= 0 or m.y ~= 0 then
    local bnx, bny = goalX - t.x, goalY - t.y
    if col.normal.x == 0 then bny = -bny else bnx = -bnx end
    bx, by = t.x + bnx, t.y + bny
  end
  col.bounce = { x = bx, y = by }
  local cols, len = world:project(col.item, t.x, t.y, w, h, bx, by, filter)
  return bx, by, cols, len
end

local function defaultFilter() return 'slide' end

function World:addResponse(name, fn) self.responses[name] = fn end

function World:add(item, x, y, w, h)
  assert(not self.rects[item], 'added twice')
  self.rects[item] = { x = x, y = y, w = w, h = h }
  local cl, ct, cw, ch = toCellRect(self.cellSize, x, y, w, h)
  for cy = ct, ct + ch - 1 do
    for cx = cl, cl + cw - 1 do addToCell(self, item, cx, cy) end
  end
  return item
end

function World:remove(item)
  local r = assert(self.rects[item], 'not in the world')
  self.rects[item] = nil
  local cl, ct, cw, ch = toCellRect(self.cellSize, r.x, r.y, r.w, r.h)
  for cy = ct, ct + ch - 1 do
    for cx = cl, cl + cw - 1 do removeFromCell(self, item, cx, cy) end
  end
end

function World:getRect(item)
  local r = assert(self.rects[item], 'not in the world')
  return r.x, r.y, r.w, r.h
end

function World:update(item, x2, y2, w2, h2)
  local r = assert(self.rects[item], 'not in the world')
  local x1, y1, w1, h1 = r.x, r.y, r.w, r.h
  w2, h2 = w2 or w1, h2 or h1
  if x1 == x2 and y1 == y2 and w1 == w2 and h1 == h2 then return end
  local cs = self.cellSize
  local cl1, ct1, cw1, ch1 = toCellRect(cs, x1, y1, w1, h1)
  local cl2, ct2, cw2, ch2 = toCellRect(cs, x2, y2, w2, h2)
  if cl1 ~= cl2 or ct1 ~= ct2 or cw1 ~= cw2 or ch1 ~= ch2 then
    local cr1, cb1 = cl1 + cw1 - 1, ct1 + ch1 - 1
    local cr2, cb2 = cl2 + cw2 - 1, ct2 + ch2 - 1
    for cy = ct1, cb1 do
      local outside = cy < ct2 or cy > cb2
      for cx = cl1, cr1 do
        if outside or cx < cl2 or cx > cr2 then removeFromCell(self, item, cx, cy) end
      end
    end
    for cy = ct2, cb2 do
      local outside = cy < ct1 or cy > cb1
      for cx = cl2, cr2 do
        if outside or cx < cl1 or cx > cr1 then addToCell(self, item, cx, cy) end
      end
    end
  end
  r.x, r.y, r.w, r.h = x2, y2, w2, h2
end

function World:project(item, x, y, w, h, goalX, goalY, filter)
  goalX, goalY = goalX or x, goalY or y
  filter = filter or defaultFilter
  local cols, len = {}, 0
  local visited = {}
  if item ~= nil then visited[item] = true end
  local tl, tt = min(goalX, x), min(goalY, y)
  local tr, tb = max(goalX + w, x + w), max(goalY + h, y + h)
  local cl, ct, cw, ch = toCellRect(self.cellSize, tl, tt, tr - tl, tb - tt)
  for other in pairs(itemsInCellRect(self, cl, ct, cw, ch)) do
    if not visited[other] then
      visited[other] = true
      local responseName = filter(item, other)
      if responseName then
        local ox, oy, ow, oh = self:getRect(other)
        local col = rect.detectCollision(x, y, w, h, ox, oy, ow, oh, goalX, goalY)
        if col then
          col.other, col.item, col.type = other, item, responseName
          len = len + 1
          cols[len] = col
        end
      end
    end
  end
  table.sort(cols, byTiAndDistance)
  return cols, len
end

function World:check(item, goalX, goalY, filter)
  filter = filter or defaultFilter
  local visited = { [item] = true }
  local visitedFilter = function(itm, other)
    if visited[other] then return false end
    return filter(itm, other)
  end
  local cols, len = {}, 0
  local x, y, w, h = self:getRect(item)
  local pcols, plen = self:project(item, x, y, w, h, goalX, goalY, visitedFilter)
  while plen > 0 do
    local col = pcols[1]
    len = len + 1
    cols[len] = col
    visited[col.other] = true
    local response = assert(self.responses[col.type], 'unknown response')
    goalX, goalY, pcols, plen = response(self, col, x, y, w, h, goalX, goalY, visitedFilter)
  end
  return goalX, goalY, cols, len
end

function World:move(item, goalX, goalY, filter)
  local ax, ay, cols, len = self:check(item, goalX, goalY, filter)
  self:update(item, ax, ay)
  return ax, ay, cols, len
end

function World:queryRect(x, y, w, h, filter)
  local cl, ct, cw, ch = toCellRect(self.cellSize, x, y, w, h)
  local items, len = {}, 0
  for item in pairs(itemsInCellRect(self, cl, ct, cw, ch)) do
    local r = self.rects[item]
    if (not filter or filter(item)) and rect.isIntersecting(x, y, w, h, r.x, r.y, r.w, r.h) then
      len = len + 1
      items[len] = item
    end
  end
  return items, len
end

function ref.newWorld(cellSize)
  local world = setmetatable({
    cellSize = cellSize or 64, rects = {}, rows = {}, nonEmptyCells = {}, responses = {},
  }, World_mt)
  world:addResponse('touch', touch)
  world:addResponse('cross', cross)
  world:addResponse('slide', slide)
  world:addResponse('bounce', bounce)
  return world
end

return ref
