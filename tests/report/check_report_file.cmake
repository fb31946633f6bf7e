# Runs COMMAND (a ;-list) and fails unless its exit code is EXIT_CODE, its output matches
# OUTPUT_REGEX, and, when REPORT is given, that file exists, contains "<svg" (unless NO_SVG),
# every string of CONTAINS (a ;-list), and nothing a browser would fetch: no http:// or https://
# except the SVG namespace (an identifier, never fetched), no script, stylesheet link or src.
# cmake -DCOMMAND=... -DEXIT_CODE=0 -DOUTPUT_REGEX=... [-DREPORT=file] [-DCONTAINS=a;b]
#       [-DNO_SVG=ON] [-DNOT_CREATED=file] -P check_report_file.cmake
# The run and its exit code, output and NOT_CREATED are checked as every tool test does; the
# report is removed first so that a re-run cannot pass on an old one.
if(DEFINED REPORT)
  set(FRESH "${REPORT}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../support/expect_run.cmake)
if(NOT DEFINED REPORT)
  return()
endif()
if(NOT EXISTS "${REPORT}")
  message(FATAL_ERROR "${REPORT} was not written")
endif()
file(READ "${REPORT}" html)
if(NOT NO_SVG)
  string(FIND "${html}" "<svg" svg_at)
  if(svg_at EQUAL -1)
    message(FATAL_ERROR "${REPORT} has no <svg")
  endif()
endif()
foreach(expected IN LISTS CONTAINS)
  string(FIND "${html}" "${expected}" found_at)
  if(found_at EQUAL -1)
    message(FATAL_ERROR "${REPORT} does not contain: ${expected}")
  endif()
endforeach()
string(REPLACE "xmlns=\"http://www.w3.org/2000/svg\"" "" without_namespace "${html}")
foreach(external "http://" "https://" "<script" "<link" " src=" "@import" "url(")
  string(FIND "${without_namespace}" "${external}" found_at)
  if(NOT found_at EQUAL -1)
    string(SUBSTRING "${without_namespace}" ${found_at} 80 context)
    message(FATAL_ERROR "${REPORT} refers to something external: ${context}")
  endif()
endforeach()
