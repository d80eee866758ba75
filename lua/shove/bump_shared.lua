-- shove.bump_shared: what the modules shove.bump (2D) and shove.bump3d share
-- word for word: the argument checks, the default filter, the stack of
-- broad-phase buffers, the pools, the filter pass over candidates, and the
-- world methods that know no axis. Each module takes them as locals (or
-- World methods) when it loads; nothing here is called by a game.
local ffi = require('ffi')
require('shove.library') -- the C declarations (shove_id) for growLevel

local abs = math.abs

local shared = {}

-- bump's limit of a coordinate: float range, as the C side keeps floats
-- for its own world (the grid keeps doubles, but a game's numbers beyond
-- this are garbage either way).
local FLOAT_LIMIT = 3.4e38

function shared.isFiniteInRange(v)
  return v == v and v > -FLOAT_LIMIT and v < FLOAT_LIMIT
end

-- bump's own argument checks and messages (error level 3: the caller of
-- the world method that checks).
function shared.assertType(desiredType, value, name)
  if type(value) ~= desiredType then
    error(name .. ' must be a ' .. desiredType .. ', but was ' .. tostring(value) .. '(a ' .. type(value) .. ')', 3)
  end
end

function shared.assertIsPositiveNumber(value, name)
  if type(value) ~= 'number' or value <= 0 then
    error(name .. ' must be a positive integer, but was ' .. tostring(value) .. '(' .. type(value) .. ')', 3)
  end
end

-- Of a and b, the one nearer x (b on a tie).
function shared.nearest(x, a, b)
  if abs(a - x) < abs(b - x) then return a end
  return b
end

-- bump's default filter: every other item slides.
function shared.defaultFilter()
  return 'slide'
end

-- A buffer of `cap` candidates at `level` of the world's buffer stack, with
-- the level's `which` ids (also as 32-bit words) and `names` table.
function shared.growLevel(self, level, cap)
  local buf = ffi.new('uint32_t[?]', cap)
  self._bufs[level], self._bufCaps[level] = buf, cap
  local which = ffi.new('shove_id[?]', cap)
  self._which[level] = which
  self._whichWords[level] = ffi.cast('uint32_t *', which)
  self._names[level] = self._names[level] or {}
  return buf
end

-- Gives back the level the last query took.
function shared.releaseBuffer(self)
  local level = self._bufTop
  if level > 0 then self._bufTop = level - 1 end
end

-- Every pooled list and collision free again (the outermost check starts).
function shared.resetPools(self)
  self._colTop = 0
  self._listTop = 0
end

-- The candidates buf[0 .. n-1] (the broad phase's buffer at `level`) that
-- are not the item itself, not visited (when visitedOnly) and named by the
-- filter: their body indices go to the level's `which` ids and the
-- filter's answers to its `names` table. Returns their count. Only indices
-- and names here: the numbers stay in C.
function shared.askFilter(self, level, item, buf, n, selfIndex, visitedOnly, userFilter)
  local items, visit, serial = self._items, self._visit, self._serial
  local which, names = self._whichWords[level], self._names[level]
  local m = 0
  for i = 0, n - 1 do
    local idx = buf[i]
    if idx ~= selfIndex and not (visitedOnly and visit[idx] == serial) then
      local other = items[idx]
      local responseName = userFilter(item, other)
      -- a filter may remove items (the item asked about is then passed)
      if responseName and items[idx] == other then
        which[2 * m] = idx
        m = m + 1
        names[m] = responseName
      end
    end
  end
  return m
end

-- The order of querySegment's results: where the infinite line enters.
function shared.sortByWeight(a, b) return a.weight < b.weight end

-- World methods that know no axis.
function shared.addResponse(self, name, response)
  self.responses[name] = response
end

function shared.hasItem(self, item)
  return item ~= nil and self._index[item] ~= nil
end

function shared.getItems(self)
  local items, len = {}, 0
  for _, item in pairs(self._items) do
    len = len + 1
    items[len] = item
  end
  return items, len
end

function shared.countItems(self)
  return self._count
end

return shared
