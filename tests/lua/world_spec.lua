-- shove.bump's world: bump.lua's documented behaviour, checked on the module
-- (LuaJIT, the shared library from SHOVE_LIBRARY).
local bump = require('shove.bump')

local lists = require('spec_lists')
local field, sorted = lists.field, lists.sorted

describe('bump.newWorld', function()
  it('defaults cellSize to 64 and keeps the one given', function()
    assert.equal(64, bump.newWorld().cellSize)
    assert.equal(16, bump.newWorld(16).cellSize)
  end)

  it('refuses a cell size that is not a positive number', function()
    assert.has_error(function() bump.newWorld(0) end)
    assert.has_error(function() bump.newWorld(-3) end)
    assert.has_error(function() bump.newWorld('big') end)
  end)
end)

describe('world:add, remove, update, getRect', function()
  local world
  before_each(function() world = bump.newWorld() end)

  it('returns the item and stores its rect', function()
    local item = {}
    assert.equal(item, world:add(item, 3, 4, 5, 6))
    assert.same({ 3, 4, 5, 6 }, { world:getRect(item) })
  end)

  it('accepts any Lua value but nil as an item', function()
    local fn = function() end
    local values = { 'name', 42, 0.5, true, fn, {}, coroutine.create(fn) }
    for i, v in ipairs(values) do world:add(v, i * 2, 0, 1, 1) end
    for i, v in ipairs(values) do
      assert.is_true(world:hasItem(v))
      assert.same({ i * 2, 0, 1, 1 }, { world:getRect(v) })
    end
    assert.equal(#values, world:countItems())
    assert.has_error(function() world:add(nil, 0, 0, 1, 1) end)
  end)

  it('refuses an item added twice and bad rects, and changes nothing', function()
    local a = world:add('a', 0, 0, 10, 10)
    assert.has_error(function() world:add(a, 1, 1, 1, 1) end)
    assert.has_error(function() world:add('b') end)
    assert.has_error(function() world:add('b', 0, 0, 0, 1) end)
    assert.has_error(function() world:add('b', 0, 0, 1, -1) end)
    assert.has_error(function() world:add('b', 0 / 0, 0, 1, 1) end)
    assert.has_error(function() world:add('b', 0, math.huge, 1, 1) end)
    assert.has_error(function() world:add('b', 1e39, 0, 1, 1) end)
    assert.has_error(function() world:add('b', 0, 0, 1, 0 / 0) end)
    assert.is_false(world:hasItem('b'))
    assert.equal(1, world:countItems())
    assert.same({ 0, 0, 10, 10 }, { world:getRect(a) })
  end)

  it('removes items; removed items are unknown', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:remove(a)
    assert.is_false(world:hasItem(a))
    assert.equal(0, world:countItems())
    assert.has_error(function() world:remove(a) end)
    assert.has_error(function() world:getRect(a) end)
    assert.same({}, (world:queryRect(-5, -5, 10, 10)))
    -- the item may come back
    world:add(a, 2, 2, 1, 1)
    assert.same({ 2, 2, 1, 1 }, { world:getRect(a) })
  end)

  it('updates position, and size when given', function()
    local a = world:add('a', 0, 0, 10, 10)
    world:update(a, 5, 6)
    assert.same({ 5, 6, 10, 10 }, { world:getRect(a) })
    world:update(a, 40, 40, 20, 30)
    assert.same({ 40, 40, 20, 30 }, { world:getRect(a) })
    assert.same({ a }, (world:queryPoint(50, 60)))
    assert.same({}, (world:queryPoint(5, 5)))
  end)

  it('refuses bad updates and keeps the old rect', function()
    local a = world:add('a', 0, 0, 10, 10)
    assert.has_error(function() world:update('missing', 0, 0) end)
    assert.has_error(function() world:update(a, 0 / 0, 0) end)
    assert.has_error(function() world:update(a, 0, 0, -1, 1) end)
    assert.has_error(function() world:update(a, -math.huge, 0) end)
    assert.same({ 0, 0, 10, 10 }, { world:getRect(a) })
  end)

  it('updates without going through add and remove', function()
    local a = world:add('a', 0, 0, 10, 10)
    local adds, removes = 0, 0
    local add, remove = world.add, world.remove
    world.add = function(...) adds = adds + 1 return add(...) end
    world.remove = function(...) removes = removes + 1 return remove(...) end
    world:update(a, 100, 100, 11, 11)
    world:move(a, 200, 100)
    assert.equal(0, adds)
    assert.equal(0, removes)
  end)

  it('hasItem is false for values never added, nil included', function()
    assert.is_false(world:hasItem({}))
    assert.is_false(world:hasItem(false))
    assert.is_false(world:hasItem())
    assert.is_false(world:hasItem(7))
  end)

  it('getItems lists every item once', function()
    world:add('a', 0, 0, 1, 1)
    world:add('b', 100, 0, 1, 1)
    world:add('c', -100, 0, 1, 1)
    world:remove('b')
    local items, len = world:getItems()
    assert.equal(2, len)
    assert.same({ 'a', 'c' }, sorted(items))
  end)
end)

describe('world cells', function()
  it('toCell and toWorld use cellSize, 1-based', function()
    local world = bump.newWorld(64)
    assert.same({ 1, 1 }, { world:toCell(0, 0) })
    assert.same({ 1, 1 }, { world:toCell(63.9, 0.5) })
    assert.same({ 2, 3 }, { world:toCell(64, 128) })
    assert.same({ 0, -1 }, { world:toCell(-1, -65) })
    assert.same({ 0, 0 }, { world:toWorld(1, 1) })
    assert.same({ 64, 128 }, { world:toWorld(2, 3) })
    assert.same({ -128, 0 }, { world:toWorld(-1, 1) })
    local small = bump.newWorld(2.5)
    assert.same({ 3, 1 }, { small:toCell(5, 0) })
    assert.same({ 5, 0 }, { small:toWorld(3, 1) })
  end)

  it('countCells counts the cells the items cover', function()
    local world = bump.newWorld(64)
    world:add('a', 0, 0, 10, 10)         -- cell (1,1)
    assert.equal(1, world:countCells())
    world:add('b', 100, 100, 10, 10)     -- (2,2)
    assert.equal(2, world:countCells())
    world:add('c', 0, 0, 100, 10)        -- (1,1) and (2,1)
    assert.equal(3, world:countCells())
    world:add('d', 300, 300, 64, 64)     -- x 300..364 and y too: 2 x 2 new cells
    assert.equal(7, world:countCells())
  end)

  it('countCells keeps emptied cells until the garbage collector runs, as bump', function()
    local world = bump.newWorld(64)
    world:add('a', 0, 0, 10, 10)
    world:add('b', 200, 200, 10, 10)
    assert.equal(2, world:countCells())
    world:remove('b')
    assert.equal(2, world:countCells())
    collectgarbage('collect')
    assert.equal(1, world:countCells())
  end)
end)

describe('world:project', function()
  local world
  before_each(function() world = bump.newWorld() end)

  it('needs a rect', function()
    assert.has_error(function() world:project() end)
    assert.has_error(function() world:project({}, 0, 0, 0, 1) end)
  end)

  it('lists overlaps, tunnels and touch-then-enter, not near misses', function()
    world:add('a', 0, 0, 10, 10)
    world:add('far', 14, 16, 10, 10)
    local cols, len = world:project({}, 4, 6, 10, 10)
    assert.equal(1, len)
    assert.equal('a', cols[1].other)
    assert.is_true(cols[1].overlaps)
    assert.equal(-6 * 4, cols[1].ti) -- minus the overlap area

    world = bump.newWorld()
    world:add('wall', 1, 0, 2, 1)
    cols, len = world:project({}, -5, 0, 4, 1, 5, 0) -- passes right through
    assert.equal(1, len)
    assert.is_false(cols[1].overlaps)
    assert.equal(0.2, cols[1].ti)

    world = bump.newWorld()
    world:add('post', 0, 0, 32, 100)
    cols, len = world:project({}, 32, 50, 20, 20, 30, 50) -- touching, then moving in
    assert.equal(1, len)
    assert.equal(0, cols[1].ti)
    assert.same({ x = 1, y = 0 }, cols[1].normal)
  end)

  it('sorts by ti, then by distance between centres', function()
    world:add('b', 70, 0, 10, 10)
    world:add('c', 50, 0, 10, 10)
    world:add('d', 90, 0, 10, 10)
    local cols, len = world:project({}, 110, 0, 10, 10, 10, 0)
    assert.equal(3, len)
    assert.same({ 0.1, 0.3, 0.5 }, field(cols, len, 'ti'))
    assert.same({ 'd', 'b', 'c' }, field(cols, len, 'other'))

    -- same ti (a floor of three tiles hit at once): the nearest first
    world = bump.newWorld()
    world:add('left', 0, 10, 10, 10)
    world:add('mid', 10, 10, 10, 10)
    world:add('right', 20, 10, 10, 10)
    cols, len = world:project({}, 12, 0, 10, 5, 12, 20)
    assert.equal(2, len)
    assert.same({ 'mid', 'right' }, field(cols, len, 'other'))
    assert.equal(cols[1].ti, cols[2].ti)
  end)

  it('skips items the filter rejects and tags the rest with its answer', function()
    world:add('b', 70, 0, 10, 10)
    world:add('c', 50, 0, 10, 10)
    world:add('d', 90, 0, 10, 10)
    local seen = {}
    local cols, len = world:project('me', 110, 0, 10, 10, 10, 0, function(item, other)
      seen[#seen + 1] = item
      if other ~= 'd' then return 'touch' end
    end)
    assert.equal(2, len)
    assert.same({ 'b', 'c' }, field(cols, len, 'other'))
    assert.same({ 'touch', 'touch' }, field(cols, len, 'type'))
    assert.equal('me', cols[1].item)
    for _, item in ipairs(seen) do assert.equal('me', item) end
  end)

  it('never reports the item itself', function()
    local a = world:add('a', 0, 0, 10, 10)
    local _, len = world:project(a, 0, 0, 10, 10, 5, 5)
    assert.equal(0, len)
  end)

  it('fills the collision table with bump\'s fields', function()
    world:add('wall', 10, 0, 10, 10)
    local cols, len = world:project('me', 0, 0, 5, 5, 20, 0)
    assert.equal(1, len)
    local col = cols[1]
    assert.equal('me', col.item)
    assert.equal('wall', col.other)
    assert.equal('slide', col.type)
    assert.is_false(col.overlaps)
    assert.equal(0.25, col.ti)
    assert.same({ x = 20, y = 0 }, col.move)
    assert.same({ x = -1, y = 0 }, col.normal)
    assert.same({ x = 5, y = 0 }, col.touch)
    assert.same({ x = 0, y = 0, w = 5, h = 5 }, col.itemRect)
    assert.same({ x = 10, y = 0, w = 10, h = 10 }, col.otherRect)
  end)
end)

describe('world:move and world:check', function()
  local world
  before_each(function() world = bump.newWorld() end)

  it('moves freely when nothing is in the way', function()
    local a = world:add('a', 0, 0, 1, 1)
    local x, y, cols, len = world:move(a, 1, 1)
    assert.same({ 1, 1, 0 }, { x, y, len })
    assert.same({}, cols)
    assert.same({ 1, 1, 1, 1 }, { world:getRect(a) })
  end)

  it('gives the default move\'s collisions bump\'s fields, read when asked', function()
    -- into a wall at x = 10, sliding on to y = 3
    world:add('wall', 10, 0, 10, 10)
    local me = world:add('me', 0, 0, 5, 5)
    local _, _, cols, len = world:move(me, 20, 3)
    assert.equal(1, len)
    local col = cols[1]
    local whole = {
      item = 'me', other = 'wall', type = 'slide', overlaps = false, ti = 0.25,
      move = { x = 20, y = 3 }, normal = { x = -1, y = 0 }, touch = { x = 5, y = 0.75 },
      itemRect = { x = 0, y = 0, w = 5, h = 5 }, otherRect = { x = 10, y = 0, w = 10, h = 10 },
      slide = { x = 5, y = 3 },
    }
    assert.same(whole, col)
    -- every field again, after the deep compare read them all
    for key, value in pairs(whole) do assert.same(value, col[key], key) end
    assert.is_nil(col.bounce)
    -- the same table each time, and writes stay
    assert.equal(col.normal, col.normal)
    col.touch.x = 99
    assert.equal(99, col.touch.x)
    col.normal = 'mine'
    assert.equal('mine', col.normal)
    -- a second collision list is a new one, its tables too
    world:update(me, 0, 0)
    local _, _, again = world:move(me, 20, 3)
    assert.are_not.equal(cols, again)
    assert.same({ x = 5, y = 0.75 }, again[1].touch)
    assert.same({ x = -1, y = 0 }, again[1].normal)
  end)

  it('errors for an item not in the world', function()
    assert.has_error(function() world:move({}, 0, 0) end)
    assert.has_error(function() world:check({}, 0, 0) end)
  end)

  it('touch stops at the first item', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 0, 3, 1, 1)
    local x, y, cols, len = world:move(a, 0, 5, function() return 'touch' end)
    assert.same({ 0, 1, 1 }, { x, y, len })
    assert.equal('b', cols[1].other)
    assert.equal('touch', cols[1].type)
    assert.same({ 0, 1, 1, 1 }, { world:getRect(a) })
  end)

  it('cross goes through and reports every item', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 0, 3, 1, 1)
    local x, y, cols, len = world:move(a, 0, 5, function() return 'cross' end)
    assert.same({ 0, 5, 2 }, { x, y, len })
    assert.same({ 'b', 'c' }, field(cols, len, 'other'))
    assert.same({ 'cross', 'cross' }, field(cols, len, 'type'))
  end)

  it('slide keeps the motion along the surface', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 2)
    world:add('c', 2, 1, 1, 1)
    local x, y, cols, len = world:move(a, 5, 5)
    assert.same({ 1, 5, 1 }, { x, y, len })
    assert.equal('c', cols[1].other)
    assert.equal('slide', cols[1].type)
    assert.same({ x = 1, y = 5 }, cols[1].slide)
  end)

  it('bounce reflects the rest of the motion', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 2)
    local x, y, cols, len = world:move(a, 0, 5, function() return 'bounce' end)
    assert.same({ 0, -3, 1 }, { x, y, len })
    assert.equal('bounce', cols[1].type)
    assert.same({ x = 0, y = -3 }, cols[1].bounce)
    assert.same({ 0, -3, 1, 1 }, { world:getRect(a) })
  end)

  it('meets each item once per move', function()
    -- sliding along a floor of many tiles: each tile at most once
    local a = world:add('a', 0, -1, 1, 1)
    for i = 0, 9 do world:add('tile' .. i, i, 0, 1, 1) end
    local calls = {}
    local x, y, cols, len = world:move(a, 8.5, 0.5, function(item, other)
      calls[other] = (calls[other] or 0) + 1
      return 'slide'
    end)
    assert.same({ 8.5, -1 }, { x, y })
    local seen = {}
    for i = 1, len do
      assert.is_nil(seen[cols[i].other])
      seen[cols[i].other] = true
    end
    assert.is_true(len >= 1)
  end)

  it('nil or false from the filter passes through without a report', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('ghost', 0, 2, 1, 1)
    local x, y, _, len = world:move(a, 0, 5, function() return nil end)
    assert.same({ 0, 5, 0 }, { x, y, len })
    x, y, _, len = world:move(a, 0, 0, function() return false end)
    assert.same({ 0, 0, 0 }, { x, y, len })
  end)

  it('check does not move the item', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    local x, y, _, len = world:check(a, 0, 5)
    assert.same({ 0, 1, 1 }, { x, y, len })
    assert.same({ 0, 0, 1, 1 }, { world:getRect(a) })
  end)

  it('uses custom responses added with addResponse', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    local calls = 0
    -- "stick": stop where touching, one cell short
    world:addResponse('stick', function(w, col, x, y, width, height, goalX, goalY, filter)
      calls = calls + 1
      assert.equal(world, w)
      assert.same({ 0, 0, 1, 1 }, { x, y, width, height })
      return col.touch.x, col.touch.y - 1, {}, 0
    end)
    local x, y, cols, len = world:move(a, 0, 5, function() return 'stick' end)
    assert.same({ 0, 0, 1 }, { x, y, len })
    assert.equal(1, calls)
    assert.equal('stick', cols[1].type)
  end)

  it('a custom response may project again with the filter it is given', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 0, 4, 1, 1)
    -- "skip": cross the first item, touch the next
    world:addResponse('skip', function(w, col, x, y, width, height, goalX, goalY, filter)
      local cols, len = w:project(col.item, x, y, width, height, goalX, goalY, filter)
      return goalX, goalY, cols, len
    end)
    local x, y, cols, len = world:move(a, 0, 6, function(_, other)
      return other == 'b' and 'skip' or 'touch'
    end)
    assert.same({ 0, 3, 2 }, { x, y, len })
    assert.same({ 'b', 'c' }, field(cols, len, 'other'))
  end)

  it('errors on a response name that is not known', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    assert.has_error(function() world:move(a, 0, 5, function() return 'wobble' end) end)
    -- the world still works afterwards
    local x, y = world:move(a, 0, 5)
    assert.same({ 0, 1 }, { x, y })
  end)

  it('refuses goals that are not finite', function()
    local a = world:add('a', 0, 0, 1, 1)
    assert.has_error(function() world:move(a, 0 / 0, 0) end)
    assert.has_error(function() world:move(a, 0, math.huge) end)
    assert.same({ 0, 0, 1, 1 }, { world:getRect(a) })
  end)

  it('gets out of an overlap it starts in', function()
    local a = world:add('a', 0, 0, 2, 2)
    world:add('b', 1.5, 0, 2, 2)
    local x, y, cols, len = world:move(a, 0, 0)
    assert.equal(1, len)
    assert.is_true(cols[1].overlaps)
    assert.same({ -0.5, 0 }, { x, y })
  end)

  it('keeps the cols of a move valid until the next move', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    local _, _, cols, len = world:move(a, 0, 5, function() return 'touch' end)
    local first = cols[1]
    assert.equal('b', first.other)
    -- a query in between changes nothing
    world:queryRect(-10, -10, 20, 20)
    assert.equal(1, len)
    assert.equal('b', first.other)
    assert.same({ x = 0, y = 1 }, first.touch)
  end)

  it('gives the caller cols to keep, as bump: later moves leave them alone', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 3, 0, 1, 1)
    local _, _, cols, len = world:move(a, 0, 5)
    assert.equal(1, len)
    local kept = cols[1]
    assert.same({ x = 0, y = 1 }, kept.touch)
    -- more moves, with collisions of their own
    world:update(a, 0, 0)
    local _, _, cols2 = world:move(a, 5, 0)
    world:update(a, 0, 0)
    world:move(a, 0, 5)
    assert.are_not.equal(cols, cols2)
    assert.are_not.equal(kept, cols2[1])
    assert.equal('b', cols[1].other)
    assert.equal(kept, cols[1])
    assert.same({ x = 0, y = 1 }, kept.touch)
    assert.same({ x = 0, y = 1 }, kept.slide)
    assert.same({ x = 0, y = 5 }, kept.move)
    assert.equal('c', cols2[1].other)
  end)

  it('gives the same move with bump\'s default filter as with a filter that says slide', function()
    -- the default filter goes to C whole (shove2_bump_check); a crowd of
    -- 400 items near the move is more than its first buffers hold, so the
    -- first such move takes the general path and the buffers grow
    local function scene()
      local w = bump.newWorld(4)
      local a = w:add('a', 0, 0, 1, 1)
      for i = 1, 400 do w:add('pile' .. i, 3 + (i % 7) * 0.01, (i % 5) * 0.1 - 1, 1, 1) end
      w:add('wall', 10, -5, 1, 20)
      return w, a
    end
    local slideAll = function() return 'slide' end
    for _, goal in ipairs({ { 6, 0.5 }, { 20, 3 }, { 2, 0.25 } }) do
      local w1, a1 = scene()
      local w2, a2 = scene()
      local x1, y1, cols1, len1 = w1:move(a1, goal[1], goal[2])
      local x2, y2, cols2, len2 = w2:move(a2, goal[1], goal[2], slideAll)
      assert.same({ x2, y2, len2 }, { x1, y1, len1 })
      for k = 1, len1 do
        assert.equal(cols2[k].other, cols1[k].other)
        assert.same(cols2[k].touch, cols1[k].touch)
        assert.same(cols2[k].slide, cols1[k].slide)
        assert.same(cols2[k].itemRect, cols1[k].itemRect)
      end
      -- and again, now that the buffers are grown
      w1:update(a1, 0, 0)
      local x3, y3, _, len3 = w1:move(a1, goal[1], goal[2])
      assert.same({ x1, y1, len1 }, { x3, y3, len3 })
    end
  end)

  it('reuses the cols of check and move when the world is told to', function()
    world.reuseCollisions = true
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 3, 0, 1, 1)
    local _, _, cols, len = world:move(a, 0, 5)
    assert.equal(1, len)
    assert.equal('b', cols[1].other)
    world:update(a, 0, 0)
    local _, _, cols2, len2 = world:move(a, 5, 0)
    assert.equal(1, len2)
    assert.equal(cols, cols2)
    assert.equal('c', cols2[1].other)
    -- a move without collisions: an empty list, which refuses writes
    local _, _, cols3, len3 = world:move(a, 2, -5)
    assert.equal(0, len3)
    assert.same({}, cols3)
    assert.has_error(function() cols3[1] = 'x' end)
  end)

  it('lets filters query the world while a move runs', function()
    local a = world:add('a', 0, 0, 1, 1)
    for i = 1, 5 do world:add('w' .. i, 2, i - 3, 1, 1) end
    local x, y, cols, len = world:move(a, 5, 0, function(item, other)
      local near = world:queryRect(1.5, -3, 2, 6)
      assert.equal(5, #near)
      return 'slide'
    end)
    assert.same({ 1, 0 }, { x, y })
    assert.equal(1, len)
  end)
end)

describe('filters that change the world', function()
  local world
  before_each(function() world = bump.newWorld(4) end)

  it('may remove the item they are asked about: it is then passed', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    world:add('c', 0, 4, 1, 1)
    local x, y, cols, len = world:move(a, 0, 6, function(_, other)
      if other == 'b' then world:remove('b') end
      return 'touch'
    end)
    assert.same({ 0, 3, 1 }, { x, y, len })
    assert.equal('c', cols[1].other)
    assert.is_false(world:hasItem('b'))
  end)

  it('may move other items, in this world or another, without changing this move', function()
    local other = bump.newWorld()
    local far = other:add('far', 100, 100, 1, 1)
    local a = world:add('a', 0, 0, 1, 1)
    world:add('wall', 3, 0, 1, 1)
    local runner = world:add('runner', 50, 50, 1, 1)
    for _ = 1, 3 do world:add({}, 60, 60, 1, 1) end
    local expect = { world:check(a, 5, 0) }
    local calls = 0
    local x, y, cols, len = world:move(a, 5, 0, function(_, o)
      calls = calls + 1
      world:move(runner, 50 + calls, 50)
      other:move(far, 100, 100 + calls)
      return 'slide'
    end)
    assert.is_true(calls >= 1)
    assert.same({ expect[1], expect[2], expect[4] }, { x, y, len })
    assert.equal('wall', cols[1].other)
    local rx, ry = world:getRect(runner)
    assert.same({ 50 + calls, 50 }, { rx, ry })
  end)

  it('may add items', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('wall', 3, 0, 1, 1)
    local added = 0
    local x, y, _, len = world:move(a, 5, 0, function()
      added = added + 1
      for i = 1, 100 do world:add({}, 200 + i * 2, 200, 1, 1) end
      return 'slide'
    end)
    assert.same({ 2, 0, 1 }, { x, y, len })
    assert.equal(2 + added * 100, world:countItems())
  end)

  it('may raise errors; the world works on afterwards', function()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('wall', 3, 0, 1, 1)
    for _ = 1, 50 do
      assert.has_error(function() world:move(a, 5, 0, function() error('boom') end) end)
    end
    local x, y, cols, len = world:move(a, 5, 0)
    assert.same({ 2, 0, 1 }, { x, y, len })
    assert.equal('wall', cols[1].other)
    assert.same({ 2, 0, 1, 1 }, { world:getRect(a) })
  end)
end)

describe('world queries', function()
  local world
  before_each(function() world = bump.newWorld() end)

  it('are empty in an empty world', function()
    assert.same({}, (world:queryRect(0, 0, 1, 1)))
    assert.same({}, (world:queryPoint(0, 0)))
    assert.same({}, (world:querySegment(0, 0, 1, 1)))
    assert.same({}, (world:querySegmentWithCoords(0, 0, 1, 1)))
  end)

  it('queryRect finds overlapping items, not touching ones, and filters', function()
    world:add('a', 10, 0, 10, 10)
    world:add('b', 70, 0, 10, 10)
    world:add('c', 50, 0, 10, 10)
    world:add('d', 90, 0, 10, 10)
    local items, len = world:queryRect(55, 5, 20, 20)
    assert.equal(2, len)
    assert.same({ 'b', 'c' }, sorted(items))
    assert.same({ 'a', 'b', 'c', 'd' }, sorted((world:queryRect(0, 5, 100, 20))))
    assert.same({}, (world:queryRect(20, 0, 30, 10))) -- touches a and c only
    local only = function(item) return item == 'a' or item == 'b' end
    assert.same({ 'a', 'b' }, sorted((world:queryRect(0, 5, 100, 20, only))))
    assert.has_error(function() world:queryRect(0, 0, -1, -1) end)
  end)

  it('queryPoint finds items containing the point (not on their border)', function()
    world:add('a', 10, 0, 10, 10)
    world:add('b', 15, 0, 10, 10)
    world:add('c', 20, 0, 10, 10)
    assert.same({}, (world:queryPoint(4, 5)))
    assert.same({ 'a' }, (world:queryPoint(14, 5)))
    assert.same({ 'a', 'b' }, sorted((world:queryPoint(16, 5))))
    assert.same({ 'b', 'c' }, sorted((world:queryPoint(21, 5))))
    assert.same({ 'b' }, (world:queryPoint(20, 5))) -- on a's and c's borders
    assert.same({ 'c' }, (world:queryPoint(21, 5, function(item) return item ~= 'b' end)))
  end)

  it('querySegment lists items in the order the segment meets them', function()
    world:add('a', 5, 0, 5, 10)
    world:add('b', 15, 0, 5, 10)
    world:add('c', 25, 0, 5, 10)
    assert.same({ 'a' }, (world:querySegment(0, 5, 11, 5)))
    assert.same({ 'a', 'b', 'c' }, (world:querySegment(0, 5, 30, 5)))
    assert.same({ 'c', 'b', 'a' }, (world:querySegment(30, 5, 0, 5)))
    assert.same({ 'b', 'c' }, (world:querySegment(17, 5, 26, 5)))
    assert.same({ 'c' }, (world:querySegment(26, 5, 22, 5)))
    local noB = function(item) return item ~= 'b' end
    assert.same({ 'c', 'a' }, (world:querySegment(30, 5, 0, 5, noB)))
  end)

  it('querySegment does not count grazing a border', function()
    world:add('a', 10, 0, 5, 5)
    world:add('c', 20, 0, 5, 5)
    assert.same({}, (world:querySegment(0, 5, 10, 0)))
    assert.same({}, (world:querySegment(15, 5, 20, 0)))
    assert.same({}, (world:querySegment(26, 5, 25, 0)))
  end)

  it('querySegmentWithCoords gives where the segment enters and leaves', function()
    world:add('a', 5, 0, 5, 10)
    world:add('b', 15, 0, 5, 10)
    local info, len = world:querySegmentWithCoords(0, 5, 20, 5)
    assert.equal(2, len)
    assert.equal('a', info[1].item)
    assert.same({ 0.25, 0.5 }, { info[1].ti1, info[1].ti2 })
    assert.same({ 5, 5, 10, 5 }, { info[1].x1, info[1].y1, info[1].x2, info[1].y2 })
    assert.equal('b', info[2].item)
    assert.same({ 15, 5, 20, 5 }, { info[2].x1, info[2].y1, info[2].x2, info[2].y2 })
    assert.is_nil(info[1].weight)
  end)

  it('refuses points that are not finite', function()
    assert.has_error(function() world:queryPoint(0 / 0, 0) end)
    assert.has_error(function() world:querySegment(0, 0, math.huge, 0) end)
  end)
end)
