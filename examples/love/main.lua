-- A LÖVE 11 example of shove.bump: run `love examples/love` with the module
-- and the library installed (see the README, "Coming from bump.lua"). The
-- game logic is in game.lua; this file only reads keys and draws.
local bump = require('shove.bump')
local game = require('game')

local state
local colors = {
  wall = { 0.45, 0.45, 0.5 }, platform = { 0.6, 0.45, 0.25 },
  coin = { 1, 0.85, 0.2 }, player = { 0.3, 0.7, 1 },
}

function love.load()
  state = game.new(bump)
end

function love.update(dt)
  local k = love.keyboard.isDown
  game.update(state, math.min(dt, 1 / 30), {
    left = k('left', 'a'), right = k('right', 'd'), jump = k('up', 'w', 'space'),
  })
end

function love.draw()
  love.graphics.scale(2, 2)
  game.draw(state, function(kind, x, y, w, h)
    love.graphics.setColor(colors[kind])
    love.graphics.rectangle('fill', x, y, w, h)
  end)
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(('coins %d, left %d'):format(state.coins, state.coinsLeft), 20, 164)
end
