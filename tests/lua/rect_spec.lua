-- bump.rect and bump.responses: bump's rectangle functions, by hand-worked
-- cases.
local bump = require('shove.bump')
local rect = bump.rect

describe('bump.rect', function()
  it('getNearestCorner picks the nearer side on each axis', function()
    assert.same({ 0, 0 }, { rect.getNearestCorner(0, 0, 10, 10, 2, 3) })
    assert.same({ 10, 10 }, { rect.getNearestCorner(0, 0, 10, 10, 8, 9) })
    assert.same({ 0, 10 }, { rect.getNearestCorner(0, 0, 10, 10, -20, 30) })
    -- a tie goes to the far side, as in bump
    assert.same({ 10, 10 }, { rect.getNearestCorner(0, 0, 10, 10, 5, 5) })
  end)

  it('getSegmentIntersectionIndices clips a segment and names the sides', function()
    -- left to right through a 10 x 10 rect at (10, 0)
    assert.same({ 0.25, 0.5, -1, 0, 1, 0 }, { rect.getSegmentIntersectionIndices(10, 0, 10, 10, 0, 5, 40, 5) })
    -- top to bottom
    assert.same({ 0.5, 1, 0, -1, 0, 0 }, { rect.getSegmentIntersectionIndices(0, 10, 10, 10, 5, 0, 5, 20) })
    -- on the infinite line
    assert.same({ 2, 3, -1, 0, 1, 0 },
      { rect.getSegmentIntersectionIndices(10, 0, 5, 5, 0, 2, 5, 2, -math.huge, math.huge) })
    -- misses, and runs along an edge
    assert.is_nil(rect.getSegmentIntersectionIndices(10, 0, 10, 10, 0, 20, 40, 20))
    assert.is_nil(rect.getSegmentIntersectionIndices(10, 0, 10, 10, 0, 10, 40, 10))
    assert.is_nil(rect.getSegmentIntersectionIndices(10, 0, 10, 10, 0, 5, 5, 5))
  end)

  it('getDiff is the Minkowski difference', function()
    assert.same({ 5, 1, 12, 7 }, { rect.getDiff(0, 0, 2, 3, 7, 4, 10, 4) })
  end)

  it('containsPoint is strict, with bump\'s margin', function()
    assert.is_true(rect.containsPoint(0, 0, 10, 10, 5, 5))
    assert.is_false(rect.containsPoint(0, 0, 10, 10, 0, 5))
    assert.is_false(rect.containsPoint(0, 0, 10, 10, 10, 5))
    assert.is_false(rect.containsPoint(0, 0, 10, 10, 1e-11, 5))
    assert.is_true(rect.containsPoint(0, 0, 10, 10, 1e-9, 5))
  end)

  it('isIntersecting is strict: touching rects do not intersect', function()
    assert.is_true(rect.isIntersecting(0, 0, 10, 10, 5, 5, 10, 10))
    assert.is_false(rect.isIntersecting(0, 0, 10, 10, 10, 0, 10, 10))
    assert.is_false(rect.isIntersecting(0, 0, 10, 10, 0, 11, 10, 10))
  end)

  it('getSquareDistance measures between centres', function()
    assert.equal(0, rect.getSquareDistance(0, 0, 2, 2, 0, 0, 2, 2))
    assert.equal(25, rect.getSquareDistance(0, 0, 2, 2, 3, 4, 2, 2))
    assert.equal(1, rect.getSquareDistance(0, 0, 2, 2, 0, 0, 4, 2)) -- centres (1,1), (2,1)
  end)

  describe('detectCollision', function()
    it('returns nil when nothing happens', function()
      assert.is_nil(rect.detectCollision(0, 0, 1, 1, 5, 5, 1, 1, 1, 1))
      -- touching and staying: no collision
      assert.is_nil(rect.detectCollision(0, 0, 1, 1, 1, 0, 1, 1))
      -- passing exactly through a corner: no collision
      assert.is_nil(rect.detectCollision(0, 0, 1, 1, 2, 0, 1, 1, 2, 2))
    end)

    it('describes an overlap with minus its area and the way out', function()
      local col = rect.detectCollision(0, 0, 8, 8, 6, 7, 8, 8)
      assert.same({
        overlaps = true, ti = -2,
        move = { x = 0, y = 0 }, normal = { x = 0, y = -1 }, touch = { x = 0, y = -1 },
        itemRect = { x = 0, y = 0, w = 8, h = 8 }, otherRect = { x = 6, y = 7, w = 8, h = 8 },
      }, col)
    end)

    it('describes a hit on the way', function()
      local col = rect.detectCollision(0, 0, 1, 1, 5, 0, 1, 1, 9, 0)
      assert.is_false(col.overlaps)
      assert.equal(4 / 9, col.ti)
      assert.same({ x = 9, y = 0 }, col.move)
      assert.same({ x = -1, y = 0 }, col.normal)
      assert.same({ x = 9 * (4 / 9), y = 0 }, col.touch)
    end)

    it('backs an overlapping mover out along its move', function()
      local col = rect.detectCollision(0, 0, 4, 4, 3, 0, 4, 4, 2, 0)
      assert.is_true(col.overlaps)
      assert.same({ x = -1, y = 0 }, col.touch)
      assert.same({ x = -1, y = 0 }, col.normal)
    end)
  end)
end)

describe('bump.responses', function()
  it('are the world\'s default responses', function()
    local world = bump.newWorld()
    for _, name in ipairs({ 'touch', 'cross', 'slide', 'bounce' }) do
      assert.is_function(bump.responses[name])
      assert.equal(bump.responses[name], world.responses[name])
    end
  end)

  it('can be called on a collision made by detectCollision', function()
    local world = bump.newWorld()
    local col = rect.detectCollision(0, 0, 1, 1, 0, 3, 1, 1, 2, 6)
    col.item = 'me'
    -- hits the top of the other at ti = 1/3, normal (0, -1)
    local tx, ty = 2 * (1 / 3), 6 * (1 / 3)
    assert.same({ x = 0, y = -1 }, col.normal)
    local x, y, _, len = bump.responses.slide(world, col, 0, 0, 1, 1, 2, 6)
    assert.same({ 2, ty, 0 }, { x, y, len })
    assert.same({ x = 2, y = ty }, col.slide)
    x, y = bump.responses.touch(world, col, 0, 0, 1, 1, 2, 6)
    assert.same({ tx, ty }, { x, y })
    x, y = bump.responses.bounce(world, col, 0, 0, 1, 1, 2, 6)
    assert.same({ 2, ty - (6 - ty) }, { x, y })
    assert.same({ x = 2, y = ty - (6 - ty) }, col.bounce)
  end)
end)
