# FindCriterion: the Criterion test framework, through pkg-config. Defines
# Criterion_FOUND and the target Criterion::Criterion.
if(TARGET Criterion::Criterion)
  set(Criterion_FOUND TRUE)
  return()
endif()
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_Criterion QUIET criterion)
endif()
find_path(Criterion_INCLUDE_DIR criterion/criterion.h HINTS ${PC_Criterion_INCLUDE_DIRS})
find_library(Criterion_LIBRARY NAMES criterion HINTS ${PC_Criterion_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Criterion REQUIRED_VARS Criterion_LIBRARY Criterion_INCLUDE_DIR)
if(Criterion_FOUND)
  add_library(Criterion::Criterion UNKNOWN IMPORTED)
  set_target_properties(Criterion::Criterion PROPERTIES
    IMPORTED_LOCATION "${Criterion_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Criterion_INCLUDE_DIR}")
endif()
mark_as_advanced(Criterion_INCLUDE_DIR Criterion_LIBRARY)
