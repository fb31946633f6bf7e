# tunedb end to end: its help texts, then each subcommand on small databases written by
# write_tunedb_fixtures (the fixture "cache_tunedb_dbs"). Names start with "cache_" so that
# `ctest -R cache` runs them with the library's tests.
add_executable(write_tunedb_fixtures write_tunedb_fixtures.cpp)
target_link_libraries(write_tunedb_fixtures PRIVATE gemmtune_cache)

set(tunedb $<TARGET_FILE:tunedb>)
set(dbs ${CMAKE_CURRENT_BINARY_DIR}/tunedb_dbs)
set(expect_run ${GEMMTUNE_TESTS_DIR}/support/expect_run.cmake)

add_test(NAME cache_tunedb_help COMMAND ${tunedb} --help)
set_tests_properties(cache_tunedb_help PROPERTIES
  PASS_REGULAR_EXPRESSION "Subcommands:.*list.*show.*export.*diff.*merge")
foreach(command list show export diff binaries merge report)
  add_test(NAME cache_tunedb_${command}_help COMMAND ${tunedb} ${command} --help)
  set_tests_properties(cache_tunedb_${command}_help PROPERTIES
    PASS_REGULAR_EXPRESSION "Usage: .*tunedb ${command}.*-h,--help")
endforeach()

# Runs tunedb with ARGS; passes when the exit code and output are as expected (and the output
# does not match NOT_OUTPUT). Exit codes: 0 done, 2 bad input, 3 failure while running.
function(add_tunedb_test name exit_code output_regex)
  cmake_parse_arguments(arg "" "NOT_CREATED;NOT_OUTPUT;SETS_UP;ALSO_REQUIRES;UNCHANGED" "ARGS" ${ARGN})
  set(options)
  if(arg_UNCHANGED)
    list(APPEND options -DUNCHANGED=${arg_UNCHANGED})
  endif()
  if(arg_NOT_CREATED)
    list(APPEND options -DNOT_CREATED=${arg_NOT_CREATED})
  endif()
  if(arg_NOT_OUTPUT)
    list(APPEND options "-DNOT_OUTPUT_REGEX=${arg_NOT_OUTPUT}")
  endif()
  add_test(NAME cache_tunedb_${name}
    COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${tunedb};${arg_ARGS}" -DEXIT_CODE=${exit_code}
            "-DOUTPUT_REGEX=${output_regex}" ${options} -P ${expect_run})
  set(required cache_tunedb_dbs ${arg_ALSO_REQUIRES})
  set_tests_properties(cache_tunedb_${name} PROPERTIES FIXTURES_REQUIRED "${required}")
  if(arg_SETS_UP)
    set_tests_properties(cache_tunedb_${name} PROPERTIES FIXTURES_SETUP ${arg_SETS_UP})
  endif()
endfunction()

add_test(NAME cache_tunedb_write_dbs COMMAND write_tunedb_fixtures ${dbs})
set_tests_properties(cache_tunedb_write_dbs PROPERTIES FIXTURES_SETUP cache_tunedb_dbs)

add_tunedb_test(missing_file 2 "no such database file"
  ARGS list --db ${dbs}/missing.db NOT_CREATED ${dbs}/missing.db)
add_tunedb_test(garbage_file 2 "not an SQLite database" ARGS list --db ${dbs}/garbage.db)
# A damaged database (pages 5 to 7 overwritten): every command refuses it, exit 2, saying so and
# what to do, before it reads or writes anything; the file stays byte for byte as it was.
set(damaged "damaged.db: open: the database is damaged \\(SQLite's quick_check: .*\\); left unchanged\\. Restore it from a copy")
add_tunedb_test(damaged_list 2 "${damaged}.*sqlite3 [^ ]*damaged.db .recover" NOT_OUTPUT "Problems"
  ARGS list --db ${dbs}/damaged.db UNCHANGED ${dbs}/damaged.db)
add_tunedb_test(damaged_show 2 "${damaged}" ARGS show 512x512x512 --db ${dbs}/damaged.db UNCHANGED ${dbs}/damaged.db)
add_tunedb_test(damaged_export 2 "${damaged}" NOT_CREATED ${dbs}/damaged.csv
  ARGS export --format csv --db ${dbs}/damaged.db --out ${dbs}/damaged.csv UNCHANGED ${dbs}/damaged.db)
add_tunedb_test(damaged_merge_into 2 "${damaged}" ARGS merge ${dbs}/damaged.db ${dbs}/b.db UNCHANGED ${dbs}/damaged.db)
add_tunedb_test(damaged_merge_from 2 "${damaged}" ARGS merge ${dbs}/a.db ${dbs}/damaged.db UNCHANGED ${dbs}/a.db)
# A dry run's database (cubins, nothing measured) does not look empty: binaries lists its cubins
# (filtered by arch, kernel, NVRTC), list, show and report say what it holds.
set(dry_reg2d "gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1 +sm_90 +13.0 +64 +0 +8192 +0 +1000 +no: ")
set(dry_warptile "gemmtune_sgemm_warptile_nn_[a-z0-9_]+ +sm_90 +13.0 +128 +0 +0 +[1-9][0-9][0-9][0-9]+ +2000 +no: ")
add_tunedb_test(binaries 0
  "kernel +arch +NVRTC +registers +spill B +static smem B +dynamic smem B +cubin B +this build +compiled at\n${dry_reg2d}[^\n]*\n${dry_warptile}.*\n2 cubins \\("
  ARGS binaries --db ${dbs}/dry.db)
add_tunedb_test(binaries_filtered 0 "^kernel[^\n]*\n${dry_warptile}[^\n]*\n\n1 of 2 cubins match"
  ARGS binaries --db ${dbs}/dry.db --arch 9.0 --kernel warptile --nvrtc 13.0)
add_tunedb_test(binaries_none_match 0 "^kernel[^\n]*\n\n0 of 2 cubins match" ARGS binaries --db ${dbs}/dry.db --arch sm_80)
add_tunedb_test(binaries_bad_arch 2 "--arch: 'hopper' is not a GPU arch" ARGS binaries --db ${dbs}/dry.db --arch hopper)
add_tunedb_test(list_dry 0
  "Problems\n[^\n]*\n\n2 cubins for sm_90 \\(NVRTC 13.0\\), listed by tunedb binaries; no measurements yet \\(tune --dry-run only compiles; tune --gpu measures\\)"
  ARGS list --db ${dbs}/dry.db)
add_tunedb_test(list_holds_cubins 0 "\n1 cubin for sm_90 \\(NVRTC 13.0\\), listed by tunedb binaries\n$"
  ARGS list --db ${dbs}/a.db)
add_tunedb_test(show_dry 2 "no measurements of nn:512x512x512; the database holds 2 cubins for sm_90 \\(NVRTC 13.0\\)"
  ARGS show 512x512x512 --db ${dbs}/dry.db)
add_tunedb_test(report_dry 0 "wrote [^\n]*dry.html: 0 GPU\\(s\\), nothing measured yet; the database holds 2 cubins for sm_90"
  ARGS report --db ${dbs}/dry.db --out ${dbs}/dry.html)
add_tunedb_test(list 0
  "NVIDIA H200 +9.0 +132.*nn:512x512x512 +2 +1 +1 +gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1 +1.000 +0.27 +1.200 +1.20x"
  ARGS list --db ${dbs}/a.db)
add_tunedb_test(show 0
  "nn:512x512x512 +\\(2 measurements\\).* 1 +gemmtune_sgemm_reg2d_nn_bm128[^ ]+ +ok +1.000.*- +gemmtune_sgemm_reg2d_nn_bm256[^ ]+ +resource_limit +- .* smem"
  ARGS show 512x512x512 --gpu h200 --db ${dbs}/a.db)
add_tunedb_test(show_unknown_problem 2 "no measurements of nn:7x7x7"
  ARGS show nn:7x7x7 --db ${dbs}/a.db)
add_tunedb_test(show_bad_problem 2 "problem '7x7': '7x7': too few dimensions \\(2; MxNxK has 3\\)"
  ARGS show 7x7 --db ${dbs}/a.db)
# Every place reads problems in one grammar (issue 16, case 11): 'X' as well as 'x', and messages
# that name the fault.
add_tunedb_test(show_upper_case_x 0 "nn:512x512x512 +\\(2 measurements\\)" ARGS show 512X512X512 --db ${dbs}/a.db)
add_tunedb_test(show_too_many_dimensions 2 "too many dimensions \\(4; MxNxK has 3\\)"
  ARGS show 4096x4096x4096x4096 --db ${dbs}/a.db)
add_tunedb_test(show_too_large 2 "M = 99999999999999999999 is above the maximum 1048576"
  ARGS show nn:99999999999999999999x1x1 --db ${dbs}/a.db)
add_tunedb_test(export_csv 0
  "^gpu,cc_major,.*NVIDIA H200,9,0,132,nn,512,512,512,gemmtune_sgemm_reg2d_nn_bm128[^,]*,reg2d,\"{\"\"BM\"\":128,.*,ok,1,1,1,1,1,0.268435456,1,10,"
  ARGS export --format csv --db ${dbs}/a.db)
add_tunedb_test(export_json 0
  "\"gpu\": {.*\"kernel_name\": \"gemmtune_sgemm_reg2d_nn_bm128.*\"params\": {.*\"BM\": 128"
  ARGS export --format json --db ${dbs}/a.db)
add_tunedb_test(export_bad_format 2 "xml not in" ARGS export --format xml --db ${dbs}/a.db)
add_tunedb_test(diff 0
  "nn:64x64x4096 +only in B.*nn:512x512x512 +kernel changed +gemmtune_sgemm_reg2d_nn_bm128[^ ]* +1.000 +gemmtune_sgemm_reg2d_nn_bm64[^ ]* +1.100 +\\+10.0%.*2 winners compared, 1 kernel changed, 1 only in B"
  ARGS diff ${dbs}/a.db ${dbs}/b.db)
add_tunedb_test(merge 0
  "added 0 GPUs, 1 problems, 1 configs, 2 measurements, 1 binaries, 0 compile outcomes; 2 winners added or replaced"
  ARGS merge ${dbs}/into.db ${dbs}/b.db SETS_UP cache_tunedb_merged)
add_tunedb_test(list_merged 0
  "nn:64x64x4096 +1 +1 +0 +gemmtune_sgemm_reg2d_nn_bm64.*nn:512x512x512 +3 +2 +1 +gemmtune_sgemm_reg2d_nn_bm64"
  ARGS list --db ${dbs}/into.db ALSO_REQUIRES cache_tunedb_merged)
add_tunedb_test(merge_missing_into 2 "pass --create"
  ARGS merge ${dbs}/new.db ${dbs}/b.db NOT_CREATED ${dbs}/new.db)
add_tunedb_test(merge_garbage_source 2 "garbage.db: open: not an SQLite database"
  ARGS merge ${dbs}/b.db ${dbs}/garbage.db)
add_tunedb_test(merge_into_itself 2 "cannot merge a database into itself"
  ARGS merge ${dbs}/b.db ${dbs}/b.db)
add_tunedb_test(export_unwritable_out 2 "no/such/dir/x.csv: cannot open for writing"
  ARGS export --format csv --db ${dbs}/a.db --out ${dbs}/no/such/dir/x.csv)
if(EXISTS /dev/full)
  add_tunedb_test(export_write_fails 3 "tunedb: error: /dev/full: write failed"
    ARGS export --format csv --db ${dbs}/a.db --out /dev/full)
endif()
add_tunedb_test(bad_flag 2 "tunedb: The following argument was not expected: --frobnicate"
  ARGS list --frobnicate --db ${dbs}/a.db)

# -v and -q, before or after the subcommand: debug logs on standard error, or none besides the
# results.
add_tunedb_test(verbose 0 "tunedb: debug: .*a.db: opened read-only.*Problems"
  ARGS -v list --db ${dbs}/a.db)
add_tunedb_test(verbose_after_subcommand 0 "tunedb: debug: .*1 winners in A, 2 in B.*winners compared"
  ARGS diff ${dbs}/a.db ${dbs}/b.db --verbose)
add_tunedb_test(quiet 0 "^GPUs.*Problems.*nn:512x512x512" NOT_OUTPUT "tunedb: (debug|info)"
  ARGS list -q --db ${dbs}/a.db)
add_tunedb_test(quiet_still_errors 2 "tunedb: error: .*missing.db: open: no such database file"
  ARGS --quiet list --db ${dbs}/missing.db)
add_tunedb_test(verbose_and_quiet 2 "--verbose excludes --quiet" ARGS list -v -q --db ${dbs}/a.db)
