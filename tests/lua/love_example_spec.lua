-- The LÖVE example's logic (examples/love/game.lua), played headless.
local bump = require('shove.bump')
local game = require('game')

local DT = 1 / 60

local function run(state, frames, input)
  for _ = 1, frames do game.update(state, DT, input) end
end

describe('the LÖVE example', function()
  it('lands the player on the floor and keeps it there', function()
    local state = game.new(bump)
    run(state, 60, {})
    local x, y, w, h = state.world:getRect(state.player)
    assert.is_true(state.player.onGround)
    assert.equal(9 * 16, y + h) -- the top of the floor row
    assert.equal(0, state.player.vy)
  end)

  it('walls stop the walk', function()
    local state = game.new(bump)
    run(state, 240, { left = true })
    local x = state.world:getRect(state.player)
    assert.equal(16, x) -- against the left wall
    run(state, 600, { right = true })
    x = state.world:getRect(state.player)
    local _, _, w = state.world:getRect(state.player)
    assert.is_true(x + w <= 19 * 16)
  end)

  it('jumps up through a one-way platform and stands on it', function()
    local state = game.new(bump)
    run(state, 30, {})
    -- walk under the platform of row 7 (x 48 to 112), then jump
    run(state, 30, { right = true })
    local x = state.world:getRect(state.player)
    assert.is_true(x > 48 and x + 12 < 112, 'under the platform')
    run(state, 1, { jump = true })
    run(state, 50, {})
    local _, y, _, h = state.world:getRect(state.player)
    assert.is_true(state.player.onGround)
    assert.equal(6 * 16, y + h) -- standing on the platform's top
  end)

  it('collects a coin by crossing it, once', function()
    local state = game.new(bump)
    local before = state.coinsLeft
    run(state, 30, {})
    run(state, 30, { right = true })
    run(state, 1, { jump = true })
    run(state, 50, {})
    -- on the platform, walk left into the coin of row 6 (x 68 to 76)
    local items = state.world:countItems()
    run(state, 15, { left = true })
    assert.equal(1, state.coins)
    assert.equal(before - 1, state.coinsLeft)
    assert.equal(items - 1, state.world:countItems())
    run(state, 30, { right = true })
    assert.equal(1, state.coins)
  end)

  it('draws every item', function()
    local state = game.new(bump)
    local kinds = {}
    game.draw(state, function(kind) kinds[kind] = (kinds[kind] or 0) + 1 end)
    assert.equal(1, kinds.player)
    assert.equal(3, kinds.coin)
    assert.is_true(kinds.wall > 40)
    assert.equal(9, kinds.platform)
  end)
end)
