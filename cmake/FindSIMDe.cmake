# FindSIMDe: the header-only SIMD Everywhere library. Defines SIMDe_FOUND and
# the target SIMDe::SIMDe.
if(TARGET SIMDe::SIMDe)
  set(SIMDe_FOUND TRUE)
  return()
endif()
find_path(SIMDe_INCLUDE_DIR simde/x86/avx2.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SIMDe REQUIRED_VARS SIMDe_INCLUDE_DIR)
if(SIMDe_FOUND)
  add_library(SIMDe::SIMDe INTERFACE IMPORTED)
  set_target_properties(SIMDe::SIMDe PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SIMDe_INCLUDE_DIR}")
endif()
mark_as_advanced(SIMDe_INCLUDE_DIR)
