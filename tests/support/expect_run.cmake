# Runs COMMAND (a ;-list) and fails unless its exit code is one of EXIT_CODE (a ;-list), its
# stdout+stderr match OUTPUT_REGEX and, when given, do not match NOT_OUTPUT_REGEX, and NOT_CREATED
# (when given) still does not exist afterwards. FRESH (when given) is removed before the run, so
# that a re-run of the test starts from the same state.
# cmake -DCOMMAND=... -DEXIT_CODE=2 -DOUTPUT_REGEX=... [-DNOT_OUTPUT_REGEX=...] [-DNOT_CREATED=path]
#       [-DFRESH=path] -P expect_run.cmake
cmake_minimum_required(VERSION 3.24)  # IN_LIST
if(DEFINED FRESH)
  file(REMOVE "${FRESH}")
endif()
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT exit_code IN_LIST EXIT_CODE)
  message(FATAL_ERROR "exit code ${exit_code}, expected ${EXIT_CODE}")
endif()
if(NOT out MATCHES "${OUTPUT_REGEX}")
  message(FATAL_ERROR "output does not match: ${OUTPUT_REGEX}")
endif()
if(DEFINED NOT_OUTPUT_REGEX AND out MATCHES "${NOT_OUTPUT_REGEX}")
  message(FATAL_ERROR "output matches what it must not: ${NOT_OUTPUT_REGEX}")
endif()
if(DEFINED NOT_CREATED AND EXISTS "${NOT_CREATED}")
  message(FATAL_ERROR "${NOT_CREATED} was created")
endif()
