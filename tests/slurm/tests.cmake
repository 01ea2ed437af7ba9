# `simtlm sweep --backend slurm` (included by tests/CMakeLists.txt). The real test starts a
# single-node Slurm on localhost as the calling user (skipped, exit 77, where it cannot: no
# slurm-wlm/munge, the node not idle in 30 s); the error cases need no Slurm.
add_test(NAME cli.sweep_slurm
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/slurm/check_sweep_slurm.sh $<TARGET_FILE:simtlm>
          ${CMAKE_CURRENT_SOURCE_DIR}/slurm/two_by_two.yaml ${CMAKE_CURRENT_BINARY_DIR}/sweep-slurm)
set_tests_properties(cli.sweep_slurm PROPERTIES TIMEOUT 240 SKIP_RETURN_CODE 77 LABELS slurm
  FIXTURES_REQUIRED slurm_cluster)
# Runs after cli.sweep_slurm however it ended (even killed at its timeout): stops its daemons.
add_test(NAME cli.sweep_slurm_stop_cluster
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/slurm/stop_cluster.sh ${CMAKE_CURRENT_BINARY_DIR}/sweep-slurm)
set_tests_properties(cli.sweep_slurm_stop_cluster PROPERTIES TIMEOUT 30 LABELS slurm FIXTURES_CLEANUP slurm_cluster)

set(SLURM_SWEEP ${CMAKE_CURRENT_SOURCE_DIR}/slurm/two_by_two.yaml)
set(SLURM_OUT ${CMAKE_CURRENT_BINARY_DIR}/sweep-slurm-errors)
set(i 0)
foreach(case
    "sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/a;--backend;pbs|--backend 'pbs': expected local or slurm"
    "sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/b;--partition;debug|--partition is an option of --backend slurm"
    "sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/c;--collect;--backend;local|--collect collects a Slurm submission: it takes --backend slurm, not --backend local"
    "sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/d;--collect|--collect: '${SLURM_OUT}/d' holds no Slurm submission (no ${SLURM_OUT}/d/slurm/state.json): submit the sweep first with `simtlm sweep ${SLURM_SWEEP} --out ${SLURM_OUT}/d --backend slurm`"
    "sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/e;--backend;slurm;--wait-timeout;-1|--wait-timeout -1 is below 0")
  math(EXPR i "${i} + 1")
  string(FIND "${case}" "|" bar)
  string(SUBSTRING "${case}" 0 ${bar} args)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${case}" ${bar} -1 expect)
  add_test(NAME cli.sweep_slurm_error_${i}
    COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=${args}" "-DEXPECT=${expect}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cli_error.cmake)
  set_tests_properties(cli.sweep_slurm_error_${i} PROPERTIES TIMEOUT 30 LABELS slurm)
endforeach()
# Without Slurm's commands on PATH: what to install, or --backend local.
add_test(NAME cli.sweep_slurm_no_sbatch
  COMMAND ${CMAKE_COMMAND} -DSIMTLM=$<TARGET_FILE:simtlm> "-DARGS=sweep;${SLURM_SWEEP};--out;${SLURM_OUT}/f;--backend;slurm"
          "-DEXPECT=simtlm: error: --backend slurm: 'sbatch' is not on PATH: load or install Slurm's client commands (on a cluster usually `module load slurm`; Debian/Ubuntu: apt-get install slurm-client), or run the sweep on this machine with --backend local"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cli_error.cmake)
set_tests_properties(cli.sweep_slurm_no_sbatch PROPERTIES TIMEOUT 30 LABELS slurm ENVIRONMENT "PATH=/nonexistent")
