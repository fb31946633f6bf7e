# Runs COMMAND (a ;-list) and fails unless its exit code is one of EXIT_CODE (a ;-list), its
# stdout+stderr match OUTPUT_REGEX and, when given, do not match NOT_OUTPUT_REGEX, and NOT_CREATED
# (when given) still does not exist afterwards. FRESH (when given) is removed before the run, so
# that a re-run of the test starts from the same state. UNCHANGED (when given): a file whose
# bytes must be the same after the run as before it. INPUT_FILE (when given): the command's
# standard input.
# STDOUT_REGEX, NOT_STDOUT_REGEX, STDERR_REGEX, NOT_STDERR_REGEX (each optional) check one stream
# alone. CMake cannot capture the streams apart and merged at once: where any of these is given,
# OUTPUT_REGEX and NOT_OUTPUT_REGEX see standard error followed by standard output, not the two
# interleaved as written.
# cmake -DCOMMAND=... -DEXIT_CODE=2 -DOUTPUT_REGEX=... [-DNOT_OUTPUT_REGEX=...] [-DNOT_CREATED=path]
#       [-DFRESH=path] [-DSTDOUT_REGEX=...] [-DNOT_STDOUT_REGEX=...] [-DSTDERR_REGEX=...]
#       [-DNOT_STDERR_REGEX=...] [-DUNCHANGED=path] [-DINPUT_FILE=path] -P expect_run.cmake
cmake_minimum_required(VERSION 3.24)  # IN_LIST
if(DEFINED FRESH)
  file(REMOVE "${FRESH}")
endif()
if(DEFINED UNCHANGED)
  file(SHA256 "${UNCHANGED}" unchanged_before)
endif()
set(input)
if(DEFINED INPUT_FILE)
  set(input INPUT_FILE "${INPUT_FILE}")
endif()
set(stream_checks STDOUT_REGEX NOT_STDOUT_REGEX STDERR_REGEX NOT_STDERR_REGEX)
set(apart FALSE)
foreach(check IN LISTS stream_checks)
  if(DEFINED ${check})
    set(apart TRUE)
  endif()
endforeach()
if(apart)
  execute_process(COMMAND ${COMMAND} ${input} RESULT_VARIABLE exit_code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  message("--- standard output:\n${stdout}--- standard error:\n${stderr}")
  set(out "${stderr}${stdout}")
else()
  execute_process(COMMAND ${COMMAND} ${input} RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
endif()
if(NOT exit_code IN_LIST EXIT_CODE)
  message(FATAL_ERROR "exit code ${exit_code}, expected ${EXIT_CODE}")
endif()
if(NOT out MATCHES "${OUTPUT_REGEX}")
  message(FATAL_ERROR "output does not match: ${OUTPUT_REGEX}")
endif()
if(DEFINED NOT_OUTPUT_REGEX AND out MATCHES "${NOT_OUTPUT_REGEX}")
  message(FATAL_ERROR "output matches what it must not: ${NOT_OUTPUT_REGEX}")
endif()
set(STDOUT_name "standard output")
set(STDERR_name "standard error")
foreach(stream STDOUT STDERR)
  string(TOLOWER ${stream} text)
  if(DEFINED ${stream}_REGEX AND NOT "${${text}}" MATCHES "${${stream}_REGEX}")
    message(FATAL_ERROR "${${stream}_name} does not match: ${${stream}_REGEX}")
  endif()
  if(DEFINED NOT_${stream}_REGEX AND "${${text}}" MATCHES "${NOT_${stream}_REGEX}")
    message(FATAL_ERROR "${${stream}_name} matches what it must not: ${NOT_${stream}_REGEX}")
  endif()
endforeach()
if(DEFINED NOT_CREATED AND EXISTS "${NOT_CREATED}")
  message(FATAL_ERROR "${NOT_CREATED} was created")
endif()
if(DEFINED UNCHANGED)
  file(SHA256 "${UNCHANGED}" unchanged_after)
  if(NOT unchanged_after STREQUAL unchanged_before)
    message(FATAL_ERROR "${UNCHANGED} was changed")
  endif()
endif()
