-- The logic of the LÖVE example (main.lua draws it and reads the keys): a
-- platformer on shove.bump. Walls slide, coins are crossed and collected,
-- one-way platforms let the player jump up through them and land on top.
-- Nothing here needs LÖVE, so the specs run it headless under busted.
local game = {}

local TILE = 16
local GRAVITY = 900 -- pixels per second squared
local RUN = 120     -- pixels per second
local JUMP = 330    -- upward speed of a jump

-- '#' wall, '=' one-way platform, '*' coin, 'P' the player's start
game.level = {
  '####################',
  '#..................#',
  '#..........*.......#',
  '#........=====.....#',
  '#..................#',
  '#...*..............#',
  '#..====.......*....#',
  '#.............###..#',
  '#P.................#',
  '####################',
}

-- The filter of the player's moves: what to do with each thing it meets.
local function playerFilter(player, other)
  if other.kind == 'coin' then return 'cross' end
  if other.kind == 'platform' then
    -- solid only from above: the player's feet were at or above its top
    local _, py, _, ph = player.world:getRect(player)
    if player.vy >= 0 and py + ph <= other.y then return 'slide' end
    return nil
  end
  return 'slide'
end

function game.new(bump)
  local world = bump.newWorld(TILE * 4)
  local state = { world = world, coins = 0, coinsLeft = 0, things = {} }
  for row, line in ipairs(game.level) do
    for col = 1, #line do
      local c = line:sub(col, col)
      local x, y = (col - 1) * TILE, (row - 1) * TILE
      if c == '#' then
        world:add({ kind = 'wall' }, x, y, TILE, TILE)
      elseif c == '=' then
        world:add({ kind = 'platform', y = y }, x, y, TILE, TILE / 4)
      elseif c == '*' then
        local coin = { kind = 'coin' }
        world:add(coin, x + 4, y + 4, TILE - 8, TILE - 8)
        state.coinsLeft = state.coinsLeft + 1
      elseif c == 'P' then
        state.player = { kind = 'player', world = world, vx = 0, vy = 0, onGround = false }
        world:add(state.player, x + 2, y + 2, TILE - 4, TILE - 2)
      end
    end
  end
  return state
end

-- One step of dt seconds. input: { left = bool, right = bool, jump = bool }.
function game.update(state, dt, input)
  local p, world = state.player, state.world
  p.vx = ((input.right and 1 or 0) - (input.left and 1 or 0)) * RUN
  if input.jump and p.onGround then p.vy = -JUMP end
  p.vy = p.vy + GRAVITY * dt

  local x, y = world:getRect(p)
  local _, _, cols, len = world:move(p, x + p.vx * dt, y + p.vy * dt, playerFilter)
  p.onGround = false
  for i = 1, len do
    local col = cols[i]
    if col.other.kind == 'coin' then
      world:remove(col.other)
      state.coins = state.coins + 1
      state.coinsLeft = state.coinsLeft - 1
    elseif col.normal.y < 0 then
      p.onGround = true
      p.vy = 0
    elseif col.normal.y > 0 then
      p.vy = 0 -- bumped a ceiling
    end
  end
end

-- Draws every item with the given rectangle function (LÖVE's, or a test's).
function game.draw(state, rectangle)
  local items, len = state.world:getItems()
  for i = 1, len do
    local item = items[i]
    local x, y, w, h = state.world:getRect(item)
    rectangle(item.kind, x, y, w, h)
  end
end

return game
