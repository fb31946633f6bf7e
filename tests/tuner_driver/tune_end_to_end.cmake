# Runs tune on two small problems, re-runs it (resume: nothing new measured), lists the result;
# then a run held to --time-limit 1s, which must end soon and say what it cut or did not start.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/shapes.txt "# two small problems\n256 256 256\n100 300 77 tn\n")
set(db ${WORK_DIR}/tuned.db)
execute_process(COMMAND ${TUNE} --gpu any --shapes ${WORK_DIR}/shapes.txt --db ${db} --strategy random --budget 12
                        --families reg2d,vectorized
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(err MATCHES "no usable CUDA device")
  message("SKIPPED: ${err}")
  return()
endif()
message("${out}\n${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "tune exited with ${code}")
endif()
foreach(problem "nn:256x256x256" "tn:100x300x77")
  if(NOT out MATCHES "\\| ${problem} +\\| gemmtune_sgemm_")
    message(FATAL_ERROR "no winner for ${problem} in the table")
  endif()
endforeach()
execute_process(COMMAND ${TUNE} --gpu any --shapes ${WORK_DIR}/shapes.txt --db ${db} --strategy random --budget 12
                        --families reg2d,vectorized
                RESULT_VARIABLE code OUTPUT_VARIABLE again ERROR_VARIABLE err)
message("${again}")
if(NOT code EQUAL 0 OR NOT again MATCHES "\\| 0/12/[0-9]+ of")
  message(FATAL_ERROR "the re-run should measure nothing and find 12 candidates stored (exit ${code})")
endif()
execute_process(COMMAND ${TUNEDB} list --db ${db} RESULT_VARIABLE code OUTPUT_VARIABLE listing)
message("${listing}")
if(NOT code EQUAL 0 OR NOT listing MATCHES "256x256x256")
  message(FATAL_ERROR "tunedb list does not show the tuned problem")
endif()

file(WRITE ${WORK_DIR}/more_shapes.txt "512 512 512\n384 640 320\n200 200 200 nt\n")
string(TIMESTAMP limited_started "%s")
execute_process(COMMAND ${TUNE} --gpu any --shapes ${WORK_DIR}/more_shapes.txt --db ${WORK_DIR}/limited.db
                        --families warptile --budget 200 --time-limit 1s
                RESULT_VARIABLE code OUTPUT_VARIABLE limited ERROR_VARIABLE err)
string(TIMESTAMP limited_ended "%s")
math(EXPR limited_seconds "${limited_ended} - ${limited_started}")
message("${limited}\n${err}\n(${limited_seconds} s)")
if(NOT code EQUAL 0 OR NOT limited MATCHES "--time-limit reached: [0-9]+ problem\\(s\\) not tuned"
   OR NOT limited MATCHES "\\(not tuned: --time-limit reached\\)")
  message(FATAL_ERROR "a run past --time-limit should say what it did not tune (exit ${code})")
endif()
# Compiles in flight are collected, nothing else is measured: well under the 200 candidates' time.
if(limited_seconds GREATER 120)
  message(FATAL_ERROR "tune --time-limit 1s took ${limited_seconds} s")
endif()
