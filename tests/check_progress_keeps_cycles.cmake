# A run on a terminal, where the progress line is printed, has exactly the statistics of the
# same run in a pipe, where it is not: the progress monitor only reads counters, called by the
# GPU after each cycle, and adds no SystemC process that could reorder the model's own.
execute_process(COMMAND ${SIMTLM} run ${SCENARIO} --json ${OUT}_pipe.json RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run in a pipe failed (${rc}): ${err}")
endif()
execute_process(COMMAND script -qec "SIMTLM_PROGRESS_INTERVAL=0.05 ${SIMTLM} run ${SCENARIO} --json ${OUT}_tty.json" /dev/null
                RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run on a terminal failed (${rc}): ${out}")
endif()
if(NOT out MATCHES "simtlm: timing model: ")
  message(FATAL_ERROR "no progress line on the terminal: ${out}")
endif()
file(READ ${OUT}_pipe.json pipe)
file(READ ${OUT}_tty.json tty)
string(JSON pipe_stats GET "${pipe}" stats)
string(JSON tty_stats GET "${tty}" stats)
string(JSON c1 GET "${pipe_stats}" gpu.cycles)
string(JSON c2 GET "${tty_stats}" gpu.cycles)
if(NOT pipe_stats STREQUAL tty_stats)
  message(FATAL_ERROR "the statistics differ on a terminal: gpu.cycles ${c2} against ${c1} in a pipe")
endif()
message(STATUS "progress: ${c1} cycles on a terminal and in a pipe")
