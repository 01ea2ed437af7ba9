# `simtlm sweep` when the figures cannot be drawn: without matplotlib (SIMTLM_PYTHON=/bin/false,
# or no interpreter there) it warns with the install hint, writes results.csv and exits 0; when
# the plotting script fails (FAILING_PYTHON), it reports the script's message and exits non-zero.
file(REMOVE_RECURSE ${OUT})
set(ENV{SIMTLM_PYTHON} /bin/false)
execute_process(COMMAND ${SIMTLM} sweep ${SWEEP} --out ${OUT} --jobs 2 RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "without matplotlib the sweep should still succeed, got exit ${rc}:\n${out}${err}")
endif()
if(NOT err MATCHES "cli.plot: warning: no figures for sweep tiny: /bin/false cannot import matplotlib; install it with `apt-get install python3-matplotlib`")
  message(FATAL_ERROR "expected the install hint:\n${err}")
endif()
file(STRINGS ${OUT}/results.csv rows)
list(LENGTH rows n)
if(NOT n EQUAL 9)
  message(FATAL_ERROR "expected results.csv with a header and 8 rows, got ${n}")
endif()
file(GLOB figures ${OUT}/fig*)
if(figures OR out MATCHES "figures")
  message(FATAL_ERROR "no figure should be written or announced: ${figures}\n${out}")
endif()

set(ENV{SIMTLM_PYTHON} /nonexistent/python3)
execute_process(COMMAND ${SIMTLM} sweep ${SWEEP} --out ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT err MATCHES "there is no Python interpreter at /nonexistent/python3 \\(SIMTLM_PYTHON\\); install")
  message(FATAL_ERROR "a missing interpreter should warn and succeed, got exit ${rc}:\n${err}")
endif()

set(ENV{SIMTLM_PYTHON} ${FAILING_PYTHON})
execute_process(COMMAND ${SIMTLM} sweep ${SWEEP} --out ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 0 OR NOT err MATCHES "simtlm: error: the plotting script failed \\([^)]*simtlm_plot.py, exit code 1\\):\nplot broke on purpose")
  message(FATAL_ERROR "a failing plotting script should fail the sweep with its message, got exit ${rc}:\n${err}")
endif()
