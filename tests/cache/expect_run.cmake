# Runs COMMAND (a ;-list) and fails unless its exit code is EXIT_CODE, its stdout+stderr match
# OUTPUT_REGEX, and NOT_CREATED (when given) still does not exist afterwards.
# cmake -DCOMMAND=... -DEXIT_CODE=2 -DOUTPUT_REGEX=... [-DNOT_CREATED=path] -P expect_run.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT exit_code STREQUAL EXIT_CODE)
  message(FATAL_ERROR "exit code ${exit_code}, expected ${EXIT_CODE}")
endif()
if(NOT out MATCHES "${OUTPUT_REGEX}")
  message(FATAL_ERROR "output does not match: ${OUTPUT_REGEX}")
endif()
if(DEFINED NOT_CREATED AND EXISTS "${NOT_CREATED}")
  message(FATAL_ERROR "${NOT_CREATED} was created")
endif()
