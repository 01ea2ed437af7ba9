# `simtlm faults` (docs/uv.md): a register-fault campaign on uv_02_reuse_buffer, twice. The two
# campaigns must be identical (the faults are seeded), every injection classified, and the
# outcomes those the model gives: under UV's token design a flipped bit of a scalar's lanes N or
# M is detected, one of a stale lane is masked; a flip of a vector register may corrupt memory.
foreach(i 1 2)
  execute_process(COMMAND ${SIMTLM} faults ${SCENARIO} --mechanism uv --target register --injections 20
                          --seed 1 --json ${OUT}_${i}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "campaign ${i} failed (${rc}): ${out}${err}")
  endif()
  file(READ ${OUT}_${i}.json json_${i})
  string(JSON outcomes_${i} GET "${json_${i}}" outcomes)
  string(JSON injections_${i} GET "${json_${i}}" injections)
endforeach()
if(NOT injections_1 STREQUAL injections_2)
  message(FATAL_ERROR "two campaigns with the same seed differ:\n${injections_1}\n${injections_2}")
endif()
set(total 0)
foreach(k detected silent masked stopped not_injected)
  string(JSON n_${k} GET "${outcomes_1}" ${k})
  math(EXPR total "${total} + ${n_${k}}")
endforeach()
if(NOT total EQUAL 20)
  message(FATAL_ERROR "20 injections, ${total} classified: ${outcomes_1}")
endif()
if(n_detected EQUAL 0 OR n_masked EQUAL 0)
  message(FATAL_ERROR "expected detected and masked register faults: ${outcomes_1}")
endif()
string(JSON coverage GET "${json_1}" rf_coverage)
if(coverage LESS_EQUAL 0 OR coverage GREATER_EQUAL 1)
  message(FATAL_ERROR "register-file coverage ${coverage} outside (0, 1)")
endif()
message(STATUS "faults: ${outcomes_1}, register-file coverage ${coverage}")
