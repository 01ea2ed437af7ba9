# `simtlm stats` (docs/cli.md) and the generated reference of docs/statistics.md. Included from
# tests/CMakeLists.txt.
set(STATS_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/check_stats_listing.cmake)

# The baseline's listing has these rows, with their exact unit and description, one per pattern.
add_test(NAME cli.stats.baseline_rows
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=stats"
          "-DEXPECT=gpu\\.cycles +cycles +core cycles of every grid run, summed@@sm<N>\\.issue\\.stall\\.barrier +cycles +nothing issued: the oldest warp waited at bar\\.sync@@sm<N>\\.regfile\\.bank<B>\\.reads +accesses +reads of this bank@@sm<N>\\.regfile\\.bank<B>\\.conflicts +conflicts +requests to this bank denied for a cycle because it was busy@@sm<N>\\.l1\\.hit_rate +ratio +hits per load \\(derived\\)"
          "-DABSENT=sm0.@@bank7@@darsie"
          -P ${STATS_CHECK})
# A mechanism's statistics appear with it (alone or in a composition) and not in the baseline.
add_test(NAME cli.stats.darsie_rows
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=stats;--mechanism;darsie;--format;markdown"
          "-DEXPECT=\\| name \\| unit \\| description \\|@@\\| `sm<N>\\.darsie\\.skip_table\\.evictions` \\| events \\| entries evicted to make room for a new leader \\|@@\\| `gpu\\.cycles` \\| cycles \\| core cycles of every grid run, summed \\|"
          -P ${STATS_CHECK})
add_test(NAME cli.stats.composition_rows
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=stats;--mechanism;darsie+bow-wr"
          "-DEXPECT=sm<N>\\.darsie\\.skip_table\\.evictions +events +[^\n]+@@sm<N>\\.bow\\.[a-z_.]+ +[^\n]+"
          -P ${STATS_CHECK})
add_test(NAME cli.stats.interpreter_rows
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=stats;--interpreter"
          "-DEXPECT=interp\\.warp_instructions +warp instructions +warp instructions executed@@limit\\.uv_intra_warp_ops +thread instructions +[^\n]+@@bow\\.iw7\\.read_bypassed +operands +[^\n]+"
          "-DABSENT=gpu.cycles"
          -P ${STATS_CHECK})
# The configuration decides what is registered: a one-SM machine with 4 banks still lists patterns.
add_test(NAME cli.stats.config_rows
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm>
          "-DARGS=stats;--config;${CMAKE_SOURCE_DIR}/configs/tiny.ini;--set;gpu.num_sms=1;--format;json"
          "-DEXPECT=  \"mechanism\": \"baseline\",@@      \"name\": \"sm<N>\\.regfile\\.bank<B>\\.reads\",@@  \"mismatches\": \\[\\],"
          -P ${STATS_CHECK})
add_test(NAME cli.stats.no_mismatch_in_any_mechanism
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> -DMISMATCHES_OF_EVERY_MECHANISM=ON -P ${STATS_CHECK})
set_tests_properties(cli.stats.baseline_rows cli.stats.darsie_rows cli.stats.composition_rows
  cli.stats.interpreter_rows cli.stats.config_rows PROPERTIES TIMEOUT 60)
set_tests_properties(cli.stats.no_mismatch_in_any_mechanism PROPERTIES TIMEOUT 300)

# Bad input: one message naming the option, nothing on stdout, non-zero exit.
set(i 0)
foreach(case
    "stats --mechanism nope=>--mechanism: unknown mechanism 'nope'"
    "stats --mechanism darsie+darsie=>--mechanism: "
    "stats --format xml=>--format 'xml': expected text, markdown or json"
    "stats --set nope=1=>nope"
    "stats --interpreter --mechanism darsie=>--interpreter lists the interpreter's statistics: drop --mechanism"
    "stats --markdown-doc --format json=>--markdown-doc writes markdown: drop --format")
  math(EXPR i "${i} + 1")
  string(FIND "${case}" "=>" sep)
  string(SUBSTRING "${case}" 0 ${sep} command)
  math(EXPR sep "${sep} + 2")
  string(SUBSTRING "${case}" ${sep} -1 expect)
  string(REPLACE " " ";" command "${command}")
  add_test(NAME cli.stats.rejects_${i}
    COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=${command}" "-DEXPECT=${expect}" -DNO_STDOUT=ON
            -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cli_error.cmake)
  set_tests_properties(cli.stats.rejects_${i} PROPERTIES TIMEOUT 60)
endforeach()

# docs/statistics.md's generated reference is what the registry says now.
add_test(NAME cli.stats.doc_current
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> -DDOC=${CMAKE_SOURCE_DIR}/docs/statistics.md
          -DWORK=${CMAKE_CURRENT_BINARY_DIR} -DBUILD_DIR=${CMAKE_BINARY_DIR}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/check_statistics_doc.cmake)
set_tests_properties(cli.stats.doc_current PROPERTIES TIMEOUT 300)
