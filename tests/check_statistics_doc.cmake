# docs/statistics.md is current: its generated section (between the GENERATED markers) equals
# what `simtlm stats --markdown-doc` prints now. SIMTLM: the program; DOC: the file; WORK: a
# scratch folder; BUILD_DIR: for the message.
execute_process(COMMAND ${SIMTLM} stats --markdown-doc RESULT_VARIABLE rc OUTPUT_VARIABLE generated
                ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simtlm stats --markdown-doc failed (${rc}):\n${err}")
endif()
set(regen "regenerate it with: scripts/gen_statistics_doc.sh ${BUILD_DIR}  (runs ${BUILD_DIR}/simtlm stats --markdown-doc)")
file(READ ${DOC} doc)
string(FIND "${doc}" "<!-- BEGIN GENERATED: simtlm stats" begin)
set(end_marker "<!-- END GENERATED -->\n")
string(FIND "${doc}" "${end_marker}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${DOC} has no generated statistics section (markers missing); ${regen}")
endif()
string(LENGTH "${end_marker}" n)
math(EXPR length "${end} + ${n} - ${begin}")
string(SUBSTRING "${doc}" ${begin} ${length} current)
if(NOT current STREQUAL generated)
  file(WRITE ${WORK}/statistics_doc.current.md "${current}")
  file(WRITE ${WORK}/statistics_doc.generated.md "${generated}")
  execute_process(COMMAND diff -u ${WORK}/statistics_doc.current.md ${WORK}/statistics_doc.generated.md
                  OUTPUT_VARIABLE difference)
  string(SUBSTRING "${difference}" 0 3000 difference)
  message(FATAL_ERROR "${DOC} is stale: its generated statistics reference differs from the registry's; "
                      "${regen}\n${difference}")
endif()
