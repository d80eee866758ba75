-- Helpers the Lua specs share for the lists the modules return.
local lists = {}

-- Field `name` of list[1 .. len], in order.
function lists.field(list, len, name)
  local out = {}
  for i = 1, len do out[i] = list[i][name] end
  return out
end

-- A copy of the list in the order of its items' names (tostring), so that
-- lists whose order is not promised compare equal.
function lists.sorted(list)
  local copy = {}
  for i, v in ipairs(list) do copy[i] = v end
  table.sort(copy, function(a, b) return tostring(a) < tostring(b) end)
  return copy
end

return lists
