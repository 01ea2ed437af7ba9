# Profile-guided optimization of the simulator (docs/performance.md, "Profile-guided build"),
# driven by `scripts/build.sh --pgo`:
#
#   SIMTLM_PGO=generate  the libraries and the program are instrumented: running the program
#                        writes branch and call counts (.gcda files) beside the object files;
#   SIMTLM_PGO=use       they are compiled with those counts (hot paths laid out and inlined for
#                        the common case);
#   (empty)              an ordinary build.
# Results are the same either way: only code layout and the compiler's choices change, not the
# floating-point semantics. The tests' own sources are never instrumented.
set(SIMTLM_PGO "" CACHE STRING "Profile-guided optimization: empty, generate or use")
set_property(CACHE SIMTLM_PGO PROPERTY STRINGS "" generate use)

if(SIMTLM_PGO STREQUAL "")
  set(SIMTLM_PGO_COMPILE "")
  set(SIMTLM_PGO_LINK "")
elseif(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "SIMTLM_PGO=${SIMTLM_PGO}: the profile-guided build is written for GCC "
                      "(found ${CMAKE_CXX_COMPILER_ID}); configure with -DSIMTLM_PGO=")
elseif(SIMTLM_PGO STREQUAL "generate")
  # (atomic counters: sim.threads runs SMs on several threads)
  set(SIMTLM_PGO_COMPILE -fprofile-generate -fprofile-update=prefer-atomic)
  set(SIMTLM_PGO_LINK -fprofile-generate)
elseif(SIMTLM_PGO STREQUAL "use")
  # A function edited since the profile was taken is compiled without its counts (no warning:
  # there would be one per edited function); code the training never ran is optimized as without
  # a profile (partial training), not for size.
  set(SIMTLM_PGO_COMPILE -fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch)
  set(SIMTLM_PGO_LINK "")
else()
  message(FATAL_ERROR "SIMTLM_PGO=${SIMTLM_PGO}: allowed values are empty, generate and use")
endif()
if(NOT SIMTLM_PGO STREQUAL "")
  message(STATUS "simtlm: profile-guided build, ${SIMTLM_PGO}")
endif()

# Applies the flags to every simtlm library and the program (called once they are defined).
function(simtlm_apply_pgo)
  get_property(libs GLOBAL PROPERTY SIMTLM_LIBRARIES)
  foreach(t IN LISTS libs ITEMS simtlm)
    target_compile_options(${t} PRIVATE ${SIMTLM_PGO_COMPILE})
  endforeach()
  # Whatever links an instrumented library needs the profiling runtime (the tests too).
  if(SIMTLM_PGO_LINK)
    foreach(t IN LISTS libs)
      target_link_options(${t} INTERFACE $<BUILD_INTERFACE:${SIMTLM_PGO_LINK}>)
    endforeach()
  endif()
endfunction()
