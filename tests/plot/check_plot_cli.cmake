# The commands that draw through the plotting script: `simtlm compare --chart` (the energy chart,
# PNG and SVG, with the mechanisms and components) and `simtlm plot` (the script's command line:
# power over time, CPI stacks; a bad input's one message and exit 1). Skipped after a message when PYTHON
# cannot import matplotlib.
execute_process(COMMAND ${PYTHON} -c "import matplotlib" RESULT_VARIABLE nompl OUTPUT_QUIET ERROR_QUIET)
if(nompl)
  message("SKIPPED: ${PYTHON} cannot import matplotlib (apt-get install python3-matplotlib)")
  return()
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
function(check_figure base)
  foreach(ext png svg)
    if(NOT EXISTS ${base}.${ext})
      message(FATAL_ERROR "${base}.${ext} was not written")
    endif()
  endforeach()
  file(READ ${base}.png sig LIMIT 8 HEX)
  if(NOT sig STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "${base}.png is not a PNG (starts ${sig})")
  endif()
  file(READ ${base}.svg svg)
  foreach(label ${ARGN})
    if(NOT svg MATCHES ">${label}<")
      message(FATAL_ERROR "${base}.svg lacks the label ${label}")
    endif()
  endforeach()
endfunction()

execute_process(COMMAND ${SIMTLM} compare ${SCENARIO} --jobs 2 --chart ${OUT}/energy.svg RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compare --chart failed (${rc}):\n${out}${err}")
endif()
check_figure(${OUT}/energy baseline darsie regfile dram "darsie.skip_table" "energy / baseline total")

execute_process(COMMAND ${SIMTLM} plot power ${FIXTURES}/power.csv ${OUT}/power RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "wrote ${OUT}/power.png, ${OUT}/power.svg")
  message(FATAL_ERROR "simtlm plot power failed (${rc}):\n${out}${err}")
endif()
check_figure(${OUT}/power alu regfile "launch 2" total)

execute_process(COMMAND ${SIMTLM} plot energy ${OUT}/missing.json ${OUT}/e RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err STREQUAL "simtlm_plot.py: error: ${OUT}/missing.json: cannot read: No such file or directory\n")
  message(FATAL_ERROR "expected one message and exit 1 for a missing input, got ${rc}:\n${out}${err}")
endif()

# `plot cpi`: the CPI stacks of two `run --json` results, a bar per mechanism stacked by category;
# a result without gpu.cpi.* (here compare's JSON) is one message and exit 1.
foreach(m baseline darsie)
  execute_process(COMMAND ${SIMTLM} run ${SCENARIO} --mechanism ${m} --json ${OUT}/run_${m}.json RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run --mechanism ${m} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
execute_process(COMMAND ${SIMTLM} plot cpi ${OUT}/run_baseline.json ${OUT}/run_darsie.json ${OUT}/cpi
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT out MATCHES "wrote ${OUT}/cpi.png, ${OUT}/cpi.svg")
  message(FATAL_ERROR "simtlm plot cpi failed (${rc}):\n${out}${err}")
endif()
check_figure(${OUT}/cpi baseline darsie fig3_4x2 issued idle mechanism "scheduler cycles / baseline's")
execute_process(COMMAND ${SIMTLM} plot cpi ${FIXTURES}/compare.json ${OUT}/nocpi RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err MATCHES "compare.json: expected the JSON of `simtlm run --json` on the timing model")
  message(FATAL_ERROR "expected one message and exit 1 for a result without CPI stacks, got ${rc}:\n${out}${err}")
endif()
