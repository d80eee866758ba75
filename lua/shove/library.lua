-- shove.library: the shared library through LuaJIT's FFI, for the modules
-- shove.bump and shove.bump3d (one load however many of them a game uses).
--
-- The C declarations come from shove/cdef.lua, which the build generates
-- from the public headers. The library is loaded from the path in the
-- environment variable SHOVE_LIBRARY when it is set, and as 'shove'
-- (libshove.so, shove.dll, libshove.dylib on the system's library path)
-- otherwise.
local ffi = require('ffi')

-- Declare once per Lua state (a game that declared shove itself must not
-- have the types defined again).
if not pcall(ffi.typeof, 'shove2_world_def') then
  ffi.cdef(require('shove.cdef'))
end

local path = os.getenv('SHOVE_LIBRARY')
if path and path ~= '' then
  return ffi.load(path)
end
return ffi.load('shove')
