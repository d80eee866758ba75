-- shove.bump against the bump-style pure-Lua world of bench/lua (cells,
-- weak tables, new tables per step): the same moves give the same positions
-- and collisions; and what the C side buys: less garbage per move (almost
-- none when the world reuses its cols) and a bounded number of filter calls.
local bump = require('shove.bump')
local ref = require('bump_reference')
local ffi = require('ffi')

local function rng(seed)
  local s = seed
  return function()
    s = (s * 1103515245 + 12345) % 2147483648
    return s / 2147483648
  end
end

-- A map of unit tiles with movers of 0.625 on it. Positions and velocities
-- are multiples of 1/64: both worlds then see the same sums bit for bit
-- (see the README: with other numbers bump's cells can miss an item that
-- overlaps a move by a rounding error, which shove's broad phase finds).
local function scene(seed, size, movers)
  local r = rng(seed)
  local tiles, list = {}, {}
  for y = 0, size - 1 do
    for x = 0, size - 1 do
      if x == 0 or y == 0 or x == size - 1 or y == size - 1 or r() < 0.15 then
        tiles[#tiles + 1] = { x, y }
      end
    end
  end
  for i = 1, movers do
    list[i] = {
      x = 1 + floor(r() * (size - 3) * 64) / 64, y = 1 + floor(r() * (size - 3) * 64) / 64,
      vx = floor((r() * 2 - 1) * 16) / 64, vy = floor((r() * 2 - 1) * 16) / 64,
    }
  end
  return tiles, list
end

floor = math.floor

-- True when the first two collisions of a list are a tie: same ti, same
-- distance from the item (bump's order is then its hash order).
local function tied(cols, len)
  for k = 2, len do
    local a, c = cols[k - 1], cols[k]
    if a.ti == c.ti then
      local ir, ar, cr = a.itemRect, a.otherRect, c.otherRect
      local da = bump.rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, ar.x, ar.y, ar.w, ar.h)
      local dc = bump.rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, cr.x, cr.y, cr.w, cr.h)
      if da == dc then return true end
    end
  end
  return false
end

local function name(v)
  return type(v) == 'table' and v.name or v
end

local function fill(world, tiles, list)
  for i, t in ipairs(tiles) do world:add('tile' .. i, t[1], t[2], 1, 1) end
  local items = {}
  for i, m in ipairs(list) do
    items[i] = { vx = m.vx, vy = m.vy, name = 'mover' .. i }
    world:add(items[i], m.x, m.y, 0.625, 0.625)
  end
  return items
end

describe('shove.bump and the bump-style reference', function()
  it('move the same way, collision for collision', function()
    local tiles, list = scene(5, 40, 300)
    local a, b = bump.newWorld(2), ref.newWorld(2)
    local itemsA, itemsB = fill(a, tiles, list), fill(b, tiles, list)
    local filters = { 'slide', 'touch', 'cross', 'bounce' }
    local collisions, kinds, ties = 0, {}, 0
    for frame = 1, 40 do
      for i = 1, #itemsA do
        local ia, ib = itemsA[i], itemsB[i]
        -- each mover has a response of its own for tiles; movers slide on movers
        local kind = filters[i % 4 + 1]
        local filter = function(item, other)
          if type(other) == 'string' then return kind end
          return 'slide'
        end
        -- every item 'slide': bump's default filter, which shove.bump
        -- hands to C whole (shove2_bump_check)
        if kind == 'slide' then filter = nil end
        local x, y = a:getRect(ia)
        local ax, ay, acols, alen = a:move(ia, x + ia.vx, y + ia.vy, filter)
        local bx, by, bcols, blen = b:move(ib, x + ib.vx, y + ib.vy, filter)
        if tied(bcols, blen) and (ax ~= bx or ay ~= by or alen ~= blen) then
          -- two items hit at the same ti and the same distance: bump's
          -- order between them is its hash order, so either answer is
          -- bump's; carry on from shove.bump's
          ties = ties + 1
          b:update(ib, ax, ay)
        else
          assert.same({ bx, by, blen }, { ax, ay, alen })
          -- the same collisions (tied ones come in either order, and a tie
          -- may name either item)
          local keyA, keyB, namesA, namesB = {}, {}, {}, {}
          for k = 1, alen do
            local ca, cb = acols[k], bcols[k]
            keyA[k] = ('%s %.17g %s %s %.17g %.17g'):format(ca.type, ca.ti,
              ca.normal.x, ca.normal.y, ca.touch.x, ca.touch.y)
            keyB[k] = ('%s %.17g %s %s %.17g %.17g'):format(cb.type, cb.ti,
              cb.normal.x, cb.normal.y, cb.touch.x, cb.touch.y)
            namesA[k], namesB[k] = name(ca.other), name(cb.other)
            assert.equal(cb.ti, ca.ti)
            kinds[ca.type] = true
          end
          table.sort(keyA)
          table.sort(keyB)
          assert.same(keyB, keyA)
          table.sort(namesA)
          table.sort(namesB)
          for k = 1, alen do
            if namesA[k] ~= namesB[k] then ties = ties + 1 break end
          end
        end
        collisions = collisions + alen
        if alen > 0 then
          local n = acols[1].normal
          if n.x ~= 0 then ia.vx, ib.vx = -ia.vx, -ib.vx end
          if n.y ~= 0 then ia.vy, ib.vy = -ia.vy, -ib.vy end
        end
      end
    end
    -- the scene did collide, with every kind of response, and ties were rare
    assert.is_true(collisions > 500)
    assert.is_true(ties * 100 < collisions, ties .. ' ties')
    for _, k in ipairs(filters) do assert.is_true(kinds[k], k) end
  end)

  it('answer queries with the same items', function()
    local tiles, list = scene(9, 30, 100)
    local a, b = bump.newWorld(2), ref.newWorld(2)
    fill(a, tiles, list)
    fill(b, tiles, list)
    local r = rng(3)
    for _ = 1, 200 do
      local x, y = r() * 30, r() * 30
      local w, h = 0.1 + r() * 4, 0.1 + r() * 4
      local ia, la = a:queryRect(x, y, w, h)
      local ib, lb = b:queryRect(x, y, w, h)
      assert.equal(lb, la)
      local sa, sb = {}, {}
      for i = 1, la do sa[i] = name(ia[i]) end
      for i = 1, lb do sb[i] = name(ib[i]) end
      table.sort(sa)
      table.sort(sb)
      assert.same(sb, sa)
    end
  end)
end)

describe('shove.bump moves', function()
  local function garbagePerMove(lib, reuse)
    local tiles, list = scene(11, 40, 300)
    local world = lib.newWorld(2)
    if reuse then world.reuseCollisions = true end
    local items = fill(world, tiles, list)
    local function frame()
      local hits = 0
      for i = 1, #items do
        local it = items[i]
        local x, y = world:getRect(it)
        local _, _, cols, len = world:move(it, x + it.vx, y + it.vy)
        hits = hits + len
        if len > 0 then
          local n = cols[1].normal
          if n.x ~= 0 then it.vx = -it.vx end
          if n.y ~= 0 then it.vy = -it.vy end
        end
      end
      return hits
    end
    for _ = 1, 5 do frame() end
    collectgarbage('collect')
    collectgarbage('stop')
    local before = collectgarbage('count')
    local hits = 0
    for _ = 1, 10 do hits = hits + frame() end
    local bytes = (collectgarbage('count') - before) * 1024
    collectgarbage('restart')
    assert.is_true(hits > 100)
    return bytes / (10 * #items)
  end

  -- With the JIT off: collectgarbage('count') also counts the compiler's
  -- own memory, which depends on how LuaJIT traces the test, not on what
  -- the module allocates (bench_bump.lua measures with the JIT on). The
  -- traces compiled so far go too (jit.off leaves them running), so that
  -- the count does not depend on the specs that ran before.
  local function measure(...)
    jit.off()
    jit.flush()
    local ok, a, b, c = pcall(...)
    jit.on()
    assert(ok, a)
    return a, b, c
  end

  it('make less than half the garbage of the bump-style world, with cols of the caller\'s', function()
    -- the collisions the caller keeps are new tables, as in bump; the
    -- projections a move makes on the way allocate nothing
    local ours, theirs = measure(function() return garbagePerMove(bump), garbagePerMove(ref) end)
    assert.is_true(ours * 2 <= theirs, ('%.1f bytes a move against %.1f'):format(ours, theirs))
  end)

  it('make at most a tenth of the garbage of the bump-style world when the world reuses cols', function()
    local ours, theirs = measure(function() return garbagePerMove(bump, true), garbagePerMove(ref) end)
    assert.is_true(ours * 10 <= theirs, ('%.1f bytes a move against %.1f'):format(ours, theirs))
  end)

  it('ask the filter about near items only, however big the world', function()
    local world = bump.newWorld(64)
    for i = 0, 99 do
      for j = 0, 99 do world:add(('tile %d %d'):format(i, j), i * 3, j * 3, 1, 1) end
    end
    local mover = world:add('mover', 1.5, 1.5, 1, 1)
    local calls = 0
    local _, _, _, len = world:move(mover, 1.5, 2.5, function() calls = calls + 1 return 'slide' end)
    assert.equal(0, len)
    -- the move's rect (1.5..2.5, 1.5..3.5) meets no tile; bump's cell of 64
    -- would hand the filter 22 x 22 tiles
    assert.equal(0, calls)
    _, _, _, len = world:move(mover, 3.5, 2.5, function() calls = calls + 1 return 'cross' end)
    assert.equal(1, len)
    assert.equal(1, calls)
  end)
end)

describe('shove.bump and the C library', function()
  it('declares the library from the generated header text', function()
    local cdef = require('shove.cdef')
    assert.is_string(cdef)
    for _, name in ipairs({ 'shove2_bump_grid_create', 'shove2_bump_grid_destroy', 'shove2_bump_grid_add',
                             'shove2_bump_grid_update', 'shove2_bump_grid_remove', 'shove2_bump_grid_query',
                             'shove2_bump_grid_move', 'shove2_bump_grid_rects', 'shove2_bump_detect_all',
                             'shove_status_string' }) do
      assert.truthy(cdef:find(name .. '%s*%('), name)
      assert.is_not_nil(bump.C[name])
    end
    assert.is_nil(cdef:find('static inline'))
    assert.equal(8, ffi.sizeof('vec2s'))
    assert.equal(16, ffi.sizeof('shove2_aabb'))
  end)

  it('keeps one C item per item', function()
    local world = bump.newWorld()
    assert.equal(0, tonumber(bump.C.shove2_bump_grid_count(world._grid)))
    world:add('a', 0, 0, 1, 1)
    world:add('b', 5, 0, 1, 1)
    world:remove('a')
    world:move('b', 9, 9)
    assert.equal(1, tonumber(bump.C.shove2_bump_grid_count(world._grid)))
  end)
end)
