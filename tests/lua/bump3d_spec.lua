-- shove.bump3d: bump-3dpd's API on the module (LuaJIT, the shared library
-- from SHOVE_LIBRARY), by hand-worked cases in cubes.
local bump3d = require('shove.bump3d')
local cube = bump3d.cube

local lists = require('spec_lists')
local collect, sorted = lists.field, lists.sorted

local function vec(t) return { t.x, t.y, t.z } end

describe('bump3d.cube', function()
  it('getNearestCorner picks the nearer side on each axis, ties to the far side', function()
    assert.same({ 0, 10, 10 }, { cube.getNearestCorner(0, 0, 0, 10, 10, 10, 2, 8, 5) })
  end)

  it('getSegmentIntersectionIndices clips a segment and names the sides', function()
    -- along z through a cube 10 deep at z = 10
    assert.same({ 0.25, 0.5, 0, 0, -1, 0, 0, 1 },
      { cube.getSegmentIntersectionIndices(0, 0, 10, 10, 10, 10, 5, 5, 0, 5, 5, 40) })
    -- runs along a face: no intersection
    assert.is_nil(cube.getSegmentIntersectionIndices(0, 0, 0, 10, 10, 10, -5, 5, 10, 20, 5, 10))
    -- passes beside in y
    assert.is_nil(cube.getSegmentIntersectionIndices(0, 0, 0, 10, 10, 10, -5, 12, 5, 20, 12, 5))
  end)

  it('getDiff, containsPoint, isIntersecting and getCubeDistance', function()
    assert.same({ 5, 1, -3, 12, 7, 5 }, { cube.getDiff(0, 0, 0, 2, 3, 4, 7, 4, 1, 10, 4, 1) })
    assert.is_true(cube.containsPoint(0, 0, 0, 10, 10, 10, 5, 5, 5))
    assert.is_false(cube.containsPoint(0, 0, 0, 10, 10, 10, 5, 5, 10))
    assert.is_false(cube.containsPoint(0, 0, 0, 10, 10, 10, 5, 5, 1e-11))
    assert.is_true(cube.isIntersecting(0, 0, 0, 2, 2, 2, 1, 1, 1, 2, 2, 2))
    assert.is_false(cube.isIntersecting(0, 0, 0, 2, 2, 2, 1, 1, 2, 2, 2, 2))
    -- centres (1, 1, 1) and (4, 5, 1)
    assert.equal(25, cube.getCubeDistance(0, 0, 0, 2, 2, 2, 3, 4, 0, 2, 2, 2))
    assert.equal(cube.getCubeDistance, cube.getSquareDistance)
  end)

  it('detectCollision: a tunnel along z, with every field', function()
    local col = cube.detectCollision(0, 0, 0, 1, 1, 1, 0, 0, 4, 1, 1, 1, 0, 0, 8)
    assert.is_false(col.overlaps)
    assert.equal(3 / 8, col.ti)
    assert.same({ 0, 0, 8 }, vec(col.move))
    assert.same({ 0, 0, -1 }, vec(col.normal))
    assert.same({ 0, 0, 3 }, vec(col.touch))
    assert.same({ x = 0, y = 0, z = 0, w = 1, h = 1, d = 1 }, col.itemCube)
    assert.same({ x = 0, y = 0, z = 4, w = 1, h = 1, d = 1 }, col.otherCube)
    -- stopping short in z, and passing beside in x, are no collision
    assert.is_nil(cube.detectCollision(0, 0, 0, 1, 1, 1, 0, 0, 4, 1, 1, 1, 0, 0, 2))
    assert.is_nil(cube.detectCollision(0, 0, 0, 1, 1, 1, 1, 0, 4, 1, 1, 1, 0, 0, 8))
  end)

  it('detectCollision: a resting overlap goes out along the first of the shortest axes', function()
    -- 3 out on every axis: x
    local col = cube.detectCollision(1, 1, 1, 2, 2, 2, 0, 0, 0, 4, 4, 4)
    assert.is_true(col.overlaps)
    assert.equal(-8, col.ti)
    assert.same({ 1, 0, 0 }, vec(col.normal))
    assert.same({ 4, 1, 1 }, vec(col.touch))
    -- 4 out on x, 3 on y and z: y
    col = cube.detectCollision(2, 1, 1, 2, 2, 2, 0, 0, 0, 6, 4, 4)
    assert.same({ 0, 1, 0 }, vec(col.normal))
    assert.same({ 2, 4, 1 }, vec(col.touch))
    -- 1 out on z (low side)
    col = cube.detectCollision(1, 1, -1, 2, 2, 2, 0, 0, 0, 4, 4, 4)
    assert.same({ 0, 0, -1 }, vec(col.normal))
    assert.same({ 1, 1, -2 }, vec(col.touch))
  end)
end)

describe('bump3d.newWorld', function()
  it('defaults cellSize to 64 and refuses sizes that are not positive numbers', function()
    assert.equal(64, bump3d.newWorld().cellSize)
    assert.equal(8, bump3d.newWorld(8).cellSize)
    assert.has_error(function() bump3d.newWorld(0) end)
    assert.has_error(function() bump3d.newWorld('big') end)
  end)
end)

describe('world:add, remove, update, getCube', function()
  local world
  before_each(function() world = bump3d.newWorld(4) end)

  it('stores cubes of any item but nil', function()
    local t = {}
    assert.equal(t, world:add(t, 1, 2, 3, 4, 5, 6))
    world:add('name', 0, 0, 0, 1, 1, 1)
    world:add(7, -3, -3, -3, 1, 1, 1)
    assert.same({ 1, 2, 3, 4, 5, 6 }, { world:getCube(t) })
    assert.same({ -3, -3, -3, 1, 1, 1 }, { world:getCube(7) })
    assert.equal(3, world:countItems())
    assert.same(sorted({ t, 'name', 7 }), sorted((world:getItems())))
    assert.is_true(world:hasItem('name'))
    assert.is_false(world:hasItem('other'))
    assert.is_false(world:hasItem(nil))
  end)

  it('refuses bad adds with bump-3dpd\'s messages and changes nothing', function()
    world:add('a', 0, 0, 0, 1, 1, 1)
    assert.has_error(function() world:add('a', 0, 0, 0, 1, 1, 1) end, 'Item a added to the world twice.')
    assert.has_error(function() world:add('b', 0, 0, 'z', 1, 1, 1) end, 'z must be a number, but was z(a string)')
    assert.has_error(function() world:add('b', 0, 0, 0, 1, 1, 0) end, 'd must be a positive integer, but was 0(number)')
    assert.has_error(function() world:add('b', 0, 0, 0, 1, 1) end)
    assert.has_error(function() world:add('b', 0, 0, 0 / 0, 1, 1, 1) end)
    assert.has_error(function() world:add('b', 0, 0, 1e39, 1, 1, 1) end)
    assert.has_error(function() world:add(nil, 0, 0, 0, 1, 1, 1) end)
    assert.equal(1, world:countItems())
    assert.is_false(world:hasItem('b'))
  end)

  it('updates position, and size when given; bad updates keep the old cube', function()
    world:add('a', 0, 0, 0, 1, 1, 1)
    world:update('a', 5, 6, 7)
    assert.same({ 5, 6, 7, 1, 1, 1 }, { world:getCube('a') })
    world:update('a', 5, 6, 7, 2, 3, 4)
    assert.same({ 5, 6, 7, 2, 3, 4 }, { world:getCube('a') })
    assert.has_error(function() world:update('a', 0, 0) end)
    assert.has_error(function() world:update('a', 0, 0, 0, 1, 1, -1) end)
    assert.has_error(function() world:update('zz', 0, 0, 0) end,
      'Item zz must be added to the world before being updated. Use world:add(item, x,y,z,w,h,d) to add it first.')
    assert.same({ 5, 6, 7, 2, 3, 4 }, { world:getCube('a') })
    -- the grid follows the update: found where it is, not where it was
    assert.same({ 'a' }, (world:queryPoint(6, 7, 8)))
    assert.same({}, (world:queryPoint(0.5, 0.5, 0.5)))
  end)

  it('removes items; removed items are unknown', function()
    world:add('a', 0, 0, 0, 1, 1, 1)
    world:add('b', 0, 0, 5, 1, 1, 1)
    world:remove('a')
    assert.is_false(world:hasItem('a'))
    assert.equal(1, world:countItems())
    assert.has_error(function() world:remove('a') end)
    assert.has_error(function() world:getCube('a') end,
      'Item a must be added to the world before getting its cube. Use world:add(item, x,y,z,w,h,d) to add it first.')
    assert.has_error(function() world:move('a', 1, 1, 1) end)
    -- nothing stops b on its way down z now
    local x, y, z, _, len = world:move('b', 0, 0, -3)
    assert.same({ 0, 0, -3, 0 }, { x, y, z, len })
  end)
end)

describe('world cells', function()
  it('toCell and toWorld use cellSize, 1-based', function()
    local world = bump3d.newWorld(10)
    assert.same({ 1, 1, 1 }, { world:toCell(0, 5, 9.9) })
    assert.same({ 2, 0, -1 }, { world:toCell(10, -0.1, -10.5) })
    assert.same({ 0, 10, 20 }, { world:toWorld(1, 2, 3) })
    assert.same({ -10, -20, 0 }, { world:toWorld(0, -1, 1) })
  end)

  it('countCells counts the cells the cubes cover, a shared cell once', function()
    local world = bump3d.newWorld(10)
    assert.equal(0, world:countCells())
    world:add('a', 0, 0, 0, 10, 10, 10) -- 1 cell
    assert.equal(1, world:countCells())
    world:add('b', 5, 5, 5, 10, 10, 10) -- 8 cells, one of them a's
    assert.equal(8, world:countCells())
    world:add('c', 0, 0, 20, 30, 10, 10) -- 3 cells in the plane z = 3
    assert.equal(11, world:countCells())
  end)

  it('keeps emptied cells until the garbage collector runs', function()
    local world = bump3d.newWorld(10)
    world:add('a', 0, 0, 0, 1, 1, 1)
    world:add('b', 0, 0, 50, 1, 1, 1)
    assert.equal(2, world:countCells())
    world:remove('b')
    assert.is_true(world:countCells() >= 1)
    collectgarbage('collect')
    collectgarbage('collect')
    assert.equal(1, world:countCells())
  end)
end)

-- A room: a floor (top at y = 0; bump's y grows downward), a wall at x = 10
-- standing on it, a player cube of 1 above the floor.
local function room()
  local world = bump3d.newWorld(4)
  local floor, wall, player = { name = 'floor' }, { name = 'wall' }, { name = 'player' }
  world:add(floor, -20, 0, -20, 40, 2, 40)
  world:add(wall, 10, -20, -20, 2, 20, 40)
  world:add(player, 0, -1, 0, 1, 1, 1)
  return world, floor, wall, player
end

describe('world:move and world:check', function()
  it('moves freely when nothing is in the way', function()
    local world, _, _, player = room()
    local x, y, z, cols, len = world:move(player, 2, -3, -4)
    assert.same({ 2, -3, -4, 0 }, { x, y, z, len })
    assert.same({}, cols)
    assert.same({ 2, -3, -4, 1, 1, 1 }, { world:getCube(player) })
  end)

  it('slides along the floor: the fall stops, x and z go on', function()
    local world, floor, _, player = room()
    world:update(player, 0, -5, 0)
    local x, y, z, cols, len = world:move(player, 3, 3, 2)
    assert.same({ 3, -1, 2 }, { x, y, z })
    assert.equal(1, len)
    local col = cols[1]
    assert.equal(player, col.item)
    assert.equal(floor, col.other)
    assert.equal('slide', col.type)
    assert.is_false(col.overlaps)
    assert.equal(0.5, col.ti)
    assert.same({ 3, 8, 2 }, vec(col.move))
    assert.same({ 0, -1, 0 }, vec(col.normal))
    assert.same({ 1.5, -1, 1 }, vec(col.touch))
    assert.same({ 3, -1, 2 }, vec(col.slide))
    assert.same({ x = 0, y = -5, z = 0, w = 1, h = 1, d = 1 }, col.itemCube)
    assert.same({ x = -20, y = 0, z = -20, w = 40, h = 2, d = 40 }, col.otherCube)
    assert.same({ 3, -1, 2, 1, 1, 1 }, { world:getCube(player) })
  end)

  it('slides along a wall, and into the corner of wall and floor', function()
    local world, floor, wall, player = room()
    -- along the wall: x stops at 9, y and z go on
    local x, y, z, cols, len = world:move(player, 12, -3, 5)
    assert.same({ 9, -3, 5, 1 }, { x, y, z, len })
    assert.equal(wall, cols[1].other)
    assert.same({ -1, 0, 0 }, vec(cols[1].normal))
    -- down and right into the corner: the wall first, then the floor
    world:update(player, 5, -6, 0)
    x, y, z, cols, len = world:move(player, 13, 2, 3)
    assert.same({ 9, -1, 3 }, { x, y, z })
    assert.same({ wall, floor }, collect(cols, len, 'other'))
    assert.same({ 9, 2, 3 }, vec(cols[1].slide))
    assert.same({ 9, -1, 3 }, vec(cols[2].slide))
  end)

  it('check answers as move without moving', function()
    local world, _, _, player = room()
    local x, y, z, _, len = world:check(player, 12, -3, 5)
    assert.same({ 9, -3, 5, 1 }, { x, y, z, len })
    assert.same({ 0, -1, 0, 1, 1, 1 }, { world:getCube(player) })
  end)

  it('touch stops where the item meets the other', function()
    local world, _, wall, player = room()
    local x, y, z, cols, len = world:move(player, 20, -1, 0, function() return 'touch' end)
    assert.same({ 9, -1, 0, 1 }, { x, y, z, len })
    assert.equal(wall, cols[1].other)
    assert.equal('touch', cols[1].type)
    assert.same({ 9, -1, 0, 1, 1, 1 }, { world:getCube(player) })
  end)

  it('cross goes through and reports every item on the way, in order', function()
    local world, _, wall, player = room()
    local coin = world:add('coin', 4, -1, 0, 1, 1, 1)
    local x, y, z, cols, len = world:move(player, 20, -1, 0, function(_, other)
      if other == coin or other == wall then return 'cross' end
    end)
    assert.same({ 20, -1, 0 }, { x, y, z })
    assert.same({ coin, wall }, collect(cols, len, 'other'))
    assert.same({ 'cross', 'cross' }, collect(cols, len, 'type'))
  end)

  it('bounce mirrors the rest of the motion on the normal\'s axis', function()
    local world, _, wall, player = room()
    local x, y, z, cols, len = world:move(player, 13, -4, 2, function(_, other)
      return other == wall and 'bounce' or nil
    end)
    -- touch at x = 9 after 9/13 of the motion; 4 of x left, mirrored
    assert.equal(1, len)
    assert.same({ 5, -4, 2 }, { x, y, z })
    assert.same({ 5, -4, 2 }, vec(cols[1].bounce))
    assert.same({ -1, 0, 0 }, vec(cols[1].normal))
  end)

  it('nil or false from the filter passes through without a report', function()
    local world, _, _, player = room()
    local x, y, z, _, len = world:move(player, 20, 5, 0, function() return false end)
    assert.same({ 20, 5, 0, 0 }, { x, y, z, len })
  end)

  it('meets each item once per move', function()
    local world, _, _, player = room()
    local seen = 0
    world:move(player, 20, -1, 0, function()
      seen = seen + 1
      return 'cross'
    end)
    local _, _, _, cols, len = world:move(player, -20, -1, 0, function() return 'cross' end)
    local others = {}
    for i = 1, len do
      assert.is_nil(others[cols[i].other])
      others[cols[i].other] = true
    end
    assert.is_true(seen > 0)
  end)

  it('uses responses added with addResponse, and errors on unknown ones', function()
    local world, _, wall, player = room()
    local seen
    world:addResponse('stick', function(w, col, x, y, z, wd, h, d, goalX, goalY, goalZ, filter)
      seen = { col.other, goalX, goalY, goalZ }
      local t = col.touch
      local cols, len = w:project(col.item, t.x, t.y, t.z, wd, h, d, t.x, t.y - 2, t.z, filter)
      return t.x, t.y - 2, t.z, cols, len
    end)
    local x, y, z = world:move(player, 20, -1, 0, function(_, other) return other == wall and 'stick' end)
    assert.same({ wall, 20, -1, 0 }, seen)
    assert.same({ 9, -3, 0 }, { x, y, z })
    assert.has_error(function() world:move(player, 20, -3, 0, function() return 'fly' end) end)
  end)

  it('errors for an item not in the world and for goals that are not finite', function()
    local world, _, _, player = room()
    assert.has_error(function() world:move('ghost', 1, 1, 1) end)
    assert.has_error(function() world:check('ghost', 1, 1, 1) end)
    assert.has_error(function() world:move(player, 0 / 0, 0, 0) end)
    assert.has_error(function() world:move(player, 0, 0, math.huge) end)
    assert.has_error(function() world:check(player, 0, 0, 'z') end)
    assert.same({ 0, -1, 0, 1, 1, 1 }, { world:getCube(player) })
  end)

  it('an overlap that does not move stays, and one that moves backs out', function()
    local world = bump3d.newWorld(4)
    world:add('block', 0, 0, 0, 4, 4, 4)
    world:add('p', 3, 1, 1, 2, 2, 2)
    -- resting: the slide keeps the goal, as bump-3dpd's does
    local x, y, z, cols, len = world:move('p', 3, 1, 1)
    assert.equal(1, len)
    assert.is_true(cols[1].overlaps)
    assert.same({ 1, 0, 0 }, vec(cols[1].normal))
    assert.same({ 4, 1, 1 }, vec(cols[1].touch))
    assert.same({ 3, 1, 1 }, vec(cols[1].slide))
    assert.same({ 3, 1, 1 }, { x, y, z })
    -- moving on in +z: back out along the motion to z = -2
    x, y, z, cols, len = world:move('p', 3, 1, 2)
    assert.same({ 0, 0, -1 }, vec(cols[1].normal))
    assert.same({ 3, 1, -2 }, vec(cols[1].touch))
    assert.same({ 3, 1, -2 }, { x, y, z })
  end)

  it('gives the same answer on the default path as with a filter that says slide', function()
    -- two worlds of the same random cubes; in one every move takes the
    -- default path (C), in the other a filter sends it through Lua's loop
    local function scene()
      local world = bump3d.newWorld(2)
      local rng = 12345
      local function rand()
        rng = (rng * 1103515245 + 12345) % 2147483648
        return rng / 2147483648
      end
      for i = 1, 150 do
        world:add('block' .. i, math.floor(rand() * 16), math.floor(rand() * 16), math.floor(rand() * 16), 1, 1, 1)
      end
      local movers = {}
      for i = 1, 40 do
        local x, y, z = rand() * 15, rand() * 15, rand() * 15
        if i % 3 == 0 then
          -- a third start inside a block
          local bx, by, bz = world:getCube('block' .. i)
          x, y, z = bx + 0.3, by + 0.2, bz + 0.1
        end
        movers[i] = world:add('mover' .. i, x, y, z, 0.6, 0.6, 0.6)
      end
      return world, movers, rand
    end
    local a, moversA, randA = scene()
    local b, moversB, randB = scene()
    local slideAll = function() return 'slide' end
    local compared, collided, stillCollided = 0, 0, 0
    for round = 1, 6 do
      for i = 1, #moversA do
        local x, y, z = a:getCube(moversA[i])
        -- some movers stay put (a resting overlap then keeps its place),
        -- those that start inside a block for two rounds
        local still = randA() < 0.2 or (i % 3 == 0 and round <= 2)
        randB()
        local gx = still and x or x + (randA() - 0.5) * 3
        local gy = still and y or y + (randA() - 0.5) * 3
        local gz = still and z or z + (randA() - 0.5) * 3
        if not still then randB(); randB(); randB() end
        local ax, ay, az, acols, alen = a:move(moversA[i], gx, gy, gz)
        local bx, by, bz, bcols, blen = b:move(moversB[i], gx, gy, gz, slideAll)
        assert.same({ ax, ay, az, alen }, { bx, by, bz, blen })
        for j = 1, alen do
          local p, q = acols[j], bcols[j]
          assert.same({ p.other, p.ti, p.overlaps }, { q.other, q.ti, q.overlaps })
          assert.same({ vec(p.move), vec(p.normal), vec(p.touch), vec(p.slide) },
            { vec(q.move), vec(q.normal), vec(q.touch), vec(q.slide) })
          assert.same(p.itemCube, q.itemCube)
          assert.same(p.otherCube, q.otherCube)
        end
        compared = compared + 1
        if alen > 0 then collided = collided + 1 end
        if still and alen > 0 then stillCollided = stillCollided + 1 end
      end
    end
    assert.equal(240, compared)
    assert.is_true(collided > 20)
    assert.is_true(stillCollided >= 20)
  end)

  it('reuses the cols of check and move when the world is told to', function()
    local world, _, wall, player = room()
    world.reuseCollisions = true
    local _, _, _, cols1 = world:move(player, 12, -1, 0)
    assert.equal(wall, cols1[1].other)
    world:update(player, 0, -1, 0)
    local _, _, _, cols2 = world:move(player, 12, -1, 0)
    assert.equal(cols1, cols2)
    local _, _, _, none, len = world:move(player, 9, -5, 0)
    assert.equal(0, len)
    assert.has_error(function() none[1] = 'x' end)
  end)
end)

describe('world:project and world:projectMove', function()
  it('project lists the collisions of a straight motion in order, without the item', function()
    local world, floor, wall, player = room()
    local cols, len = world:project(player, 0, -1, 0, 1, 1, 1, 20, -1, 0)
    assert.same({ wall }, collect(cols, len, 'other'))
    cols, len = world:project(nil, 0, -5, 0, 1, 1, 1, 20, 5, 0)
    assert.same({ floor, wall }, collect(cols, len, 'other'))
    assert.has_error(function() world:project(player, 0, 0, 0, 1, 1) end)
  end)

  it('projectMove runs the check for a cube not in the world and moves nothing', function()
    local world, floor, wall = room()
    local x, y, z, cols, len = world:projectMove('ghost', 5, -6, 0, 1, 1, 1, 13, 2, 3)
    assert.same({ 9, -1, 3 }, { x, y, z })
    assert.same({ wall, floor }, collect(cols, len, 'other'))
    assert.is_false(world:hasItem('ghost'))
  end)
end)

describe('world queries', function()
  local world
  before_each(function()
    world = bump3d.newWorld(4)
    world:add('a', 0, 0, 0, 2, 2, 2)
    world:add('b', 4, 0, 0, 2, 2, 2)
    world:add('c', 0, 0, 4, 2, 2, 2)
  end)

  it('queryCube finds intersecting cubes, not touching ones, and filters', function()
    assert.same({ 'a', 'b' }, sorted((world:queryCube(1, 1, 1, 4, 0.5, 0.5))))
    -- touching a's face at z = 2 only
    assert.same({}, (world:queryCube(0, 0, 2, 2, 2, 2)))
    assert.same({ 'b' }, (world:queryCube(1, 1, 1, 4, 0.5, 0.5, function(item) return item ~= 'a' end)))
    assert.has_error(function() world:queryCube(0, 0, 0, 1, 1, 0) end)
  end)

  it('queryPoint finds cubes containing the point, not on their faces', function()
    assert.same({ 'c' }, (world:queryPoint(1, 1, 5)))
    assert.same({}, (world:queryPoint(1, 1, 2)))
    assert.same({}, (world:queryPoint(1, 1, 5, function() return false end)))
    assert.has_error(function() world:queryPoint(1, 1) end)
  end)

  it('querySegment lists cubes in the order the segment meets them', function()
    local items, len = world:querySegment(10, 1, 1, -10, 1, 1)
    assert.equal(2, len)
    assert.same({ 'b', 'a' }, items)
    items = world:querySegment(1, 1, 10, 1, 1, -10)
    assert.same({ 'c', 'a' }, items)
    -- grazing a face is no hit
    assert.same({}, (world:querySegment(-5, 2, 1, 10, 2, 1)))
  end)

  it('querySegmentWithCoords gives where the segment enters and leaves', function()
    local info, len = world:querySegmentWithCoords(1, 1, 10, 1, 1, -10)
    assert.equal(2, len)
    assert.equal('c', info[1].item)
    assert.same({ 1, 1, 6, 1, 1, 4 }, { info[1].x1, info[1].y1, info[1].z1, info[1].x2, info[1].y2, info[1].z2 })
    assert.same({ 0.2, 0.3 }, { info[1].ti1, info[1].ti2 })
    assert.equal('a', info[2].item)
    assert.is_nil(info[1].weight)
    assert.has_error(function() world:querySegmentWithCoords(0, 0, 0, 1, 1, 0 / 0) end)
  end)
end)

describe('bump3d.responses', function()
  it('are the world\'s defaults', function()
    local world = bump3d.newWorld()
    for _, name in ipairs({ 'touch', 'cross', 'slide', 'bounce' }) do
      assert.is_function(bump3d.responses[name])
      assert.equal(bump3d.responses[name], world.responses[name])
    end
  end)
end)
