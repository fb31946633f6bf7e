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
foreach(command list show export export-kernels diff binaries merge report)
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
  "NVIDIA H200 +9.0 +132.*nn:512x512x512 +fp32 +2 +1 +1 +gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1 +1.000 +0.27 +- +1.200 +1.20x"
  ARGS list --db ${dbs}/a.db)
add_tunedb_test(show 0
  "nn:512x512x512 +\\(2 measurements\\).* 1 +gemmtune_sgemm_reg2d_nn_bm128[^ ]+ +strict +ok +1.000.*- +gemmtune_sgemm_reg2d_nn_bm256[^ ]+ +strict +resource_limit +- .* smem"
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
  "^gpu,cc_major,.*NVIDIA H200,9,0,132,nn,512,512,512,1,gemmtune_sgemm_reg2d_nn_bm128[^,]*,reg2d,strict,\"{\"\"BM\"\":128,.*,ok,1,1,1,1,1,0.268435456,1,10,"
  ARGS export --format csv --db ${dbs}/a.db)
add_tunedb_test(export_json 0
  "\"gpu\": {.*\"kernel_name\": \"gemmtune_sgemm_reg2d_nn_bm128.*\"params\": {.*\"BM\": 128"
  ARGS export --format json --db ${dbs}/a.db)
add_tunedb_test(export_bad_format 2 "xml not in" ARGS export --format xml --db ${dbs}/a.db)
# Machine-readable listings: one CSV row a (GPU, problem, class) with plain numbers; JSON with the GPUs,
# problems and cubins.
add_tunedb_test(list_csv 0
  "^gpu,cc_major,cc_minor,sm_count,layout,m,n,k,batch,measured,ok,failed,precision,winner,winner_precision,ms,tflops,fp64_error,cublas_ms,speedup\nNVIDIA H200,9,0,132,nn,512,512,512,1,2,1,1,fp32,gemmtune_sgemm_reg2d_nn_bm128_bn128_bk8_tm8_tn8_align1,strict,1,0.268435456,,1.2,1.2\n$"
  ARGS list --format csv --db ${dbs}/a.db)
add_tunedb_test(list_json 0
  "^{\n  \"gpus\": ..*\"driver_version\": \"570.86\".*\"problems\": ..*\"m\": 512.*\"measured\": 2,.*\"kernel_name\": \"gemmtune_sgemm_reg2d_nn_bm128[^\"]*\",.*\"speedup\": 1.2,.*\"binaries\": ..*\"arch\": \"sm_90\",.*\"count\": 1"
  ARGS list --format json --db ${dbs}/a.db)
add_tunedb_test(list_bad_format 2 "--format: xml not in" ARGS list --format xml --db ${dbs}/a.db)
# export's filters. In the merged database the winner of nn:512x512x512 is the later-measured
# bm64 (rank 2), not the fastest row: --winners-only follows the winners table.
add_tunedb_test(export_winners_only 0
  "^gpu,[^\n]*\nNVIDIA H200,9,0,132,nn,512,512,512,1,gemmtune_sgemm_reg2d_nn_bm64[^\n]*,ok,1.1,[^\n]*,2,10,[^\n]*\nNVIDIA H200,9,0,132,nn,64,64,4096,1,gemmtune_sgemm_reg2d_nn_bm64[^\n]*\n$"
  NOT_OUTPUT "bm128|resource_limit"
  ARGS export --format csv --winners-only --db ${dbs}/into.db ALSO_REQUIRES cache_tunedb_merged)
add_tunedb_test(export_one_problem 0 "^gpu,[^\n]*\nNVIDIA H200,9,0,132,nn,64,64,4096,[^\n]*\n$"
  ARGS export --format csv --problem 64x64x4096 --gpu h200 --db ${dbs}/b.db)
# The device each measurement ran on, last: b.db's kOnlyB on GPU 1; a.db's without one (null).
add_tunedb_test(export_device_index_csv 0 "^gpu,[^\n]*,tuner_run,device_index\nNVIDIA H200,9,0,132,nn,64,64,4096,[^\n]*,test,1\n$"
  ARGS export --format csv --problem 64x64x4096 --db ${dbs}/b.db)
add_tunedb_test(export_device_index_json 0 "\"tuner_run\": \"test\",\n *\"device_index\": null\n"
  ARGS export --format json --db ${dbs}/a.db)
add_tunedb_test(export_unknown_problem 2 "a.db: holds no problem nn:7x7x7"
  ARGS export --format csv --problem 7x7x7 --db ${dbs}/a.db)
add_tunedb_test(export_unknown_gpu 2 "a.db: holds no GPU matching 'a100'"
  ARGS export --format json --gpu a100 --db ${dbs}/a.db)
# export-kernels: the winners of a.db's GPU and the kernels the runtime may select, compiled here
# where the database has no cubin for this build; written whole, an earlier export replaced, a
# folder that is not one never.
add_tunedb_test(export_kernels 0
  "^wrote [^\n]*a_kernels: 1 tuned problems of NVIDIA H200 \\(sm_90, 132 SMs\\), [0-9]+ cubins \\(0 from the database, [0-9]+ compiled now\\)\n$"
  ARGS export-kernels -q --db ${dbs}/a.db --out ${dbs}/a_kernels SETS_UP cache_tunedb_exported)
add_tunedb_test(export_kernels_replaces_an_export 0 "^wrote [^\n]*a_kernels: 1 tuned problems"
  ARGS export-kernels -q --db ${dbs}/a.db --out ${dbs}/a_kernels ALSO_REQUIRES cache_tunedb_exported)
file(MAKE_DIRECTORY ${dbs}/not_an_export)
file(WRITE ${dbs}/not_an_export/notes.txt "keep me\n")
add_tunedb_test(export_kernels_keeps_other_folders 2 "not_an_export: a folder that is not an export \\(no manifest.json\\); not replacing it"
  ARGS export-kernels --db ${dbs}/a.db --out ${dbs}/not_an_export)
add_tunedb_test(export_kernels_nothing_tuned 2 "dry.db: no winners to export \\(tune first\\)"
  ARGS export-kernels --db ${dbs}/dry.db --out ${dbs}/dry_kernels NOT_CREATED ${dbs}/dry_kernels)
add_tunedb_test(export_kernels_unknown_gpu 2 "a.db: no winners matching 'a100' to export"
  ARGS export-kernels --db ${dbs}/a.db --gpu a100 --out ${dbs}/a100_kernels)
add_tunedb_test(diff 0
  "nn:64x64x4096 +fp32 +only in B.*nn:512x512x512 +fp32 +kernel changed +gemmtune_sgemm_reg2d_nn_bm128[^ ]* +1.000 +gemmtune_sgemm_reg2d_nn_bm64[^ ]* +1.100 +\\+10.0%.*2 winners compared, 1 kernel changed, 1 only in B"
  ARGS diff ${dbs}/a.db ${dbs}/b.db)
add_tunedb_test(merge 0
  "added 0 GPUs, 1 problems, 1 configs, 2 measurements, 1 binaries, 0 compile outcomes; 2 winners added or replaced"
  ARGS merge ${dbs}/into.db ${dbs}/b.db SETS_UP cache_tunedb_merged)
add_tunedb_test(list_merged 0
  "nn:64x64x4096 +fp32 +1 +1 +0 +gemmtune_sgemm_reg2d_nn_bm64.*nn:512x512x512 +fp32 +3 +2 +1 +gemmtune_sgemm_reg2d_nn_bm64"
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

# Precision classes: a winner of each class with its error against FP64; --precision keeps a
# class's winners (list, report) or the measurements of kernels it admits (show, export).
set(classes_strict "nn:1024x1024x1024 +strict +3 +3 +0 +gemmtune_sgemm_reg2d_[^ ]+ +2.000 +1.07 +3.1e-07 +2.500 +1.25x")
set(classes_fp32 "nn:1024x1024x1024 +fp32 +3 +3 +0 +gemmtune_sgemm_wgmma_[^ ]+ +1.000 +2.15 +2.4e-07 +2.500 +2.50x")
set(classes_tf32 "nn:1024x1024x1024 +tf32 +3 +3 +0 +gemmtune_sgemm_tmatf32_[^ ]+ +0.400 +5.37 +3.2e-04 +0.500 +1.25x")
add_tunedb_test(list_classes 0 "${classes_strict}\n[^\n]*${classes_fp32}\n[^\n]*${classes_tf32}\n"
  ARGS list --db ${dbs}/classes.db)
add_tunedb_test(list_one_class 0 "Problems\n[^\n]*\n[^\n]*${classes_tf32}\n\n" NOT_OUTPUT "strict|fp32 "
  ARGS list --precision tf32 --db ${dbs}/classes.db)
add_tunedb_test(list_bad_class 2 "--precision: fp16 not in" ARGS list --precision fp16 --db ${dbs}/classes.db)
add_tunedb_test(show_strict 0
  "kernels strict admits  \\(1 measurements\\)\n[^\n]*FP64 error[^\n]*\n +3 +gemmtune_sgemm_reg2d_[^ ]+ +strict +ok +2.000 .* +3.1e-07 "
  NOT_OUTPUT "wgmma|tmatf32" ARGS show 1024x1024x1024 --precision strict --db ${dbs}/classes.db)
add_tunedb_test(show_fp32 0 "\\(2 measurements\\).*wgmma[^\n]* fp32 +ok.*reg2d[^\n]* strict +ok" NOT_OUTPUT "tmatf32"
  ARGS show 1024x1024x1024 --precision fp32 --db ${dbs}/classes.db)
add_tunedb_test(export_classes_csv 0
  "precision,params_json,.*,max_rel_error,fp64_error,.*tmatf32[^\n]*,tmatf32,tf32,[^\n]*,0.00032,"
  ARGS export --format csv --db ${dbs}/classes.db)
add_tunedb_test(export_strict_json 0 "\"precision\": \"strict\",.*\"fp64_error\": 3.1e-07" NOT_OUTPUT "\"fp32\"|\"tf32\""
  ARGS export --format json --precision strict --db ${dbs}/classes.db)
add_tunedb_test(report_tf32 0 "wrote [^\n]*classes-tf32.html: 1 GPU"
  ARGS report --precision tf32 --db ${dbs}/classes.db --out ${dbs}/classes-tf32.html)
# A database of schema version 1 is read by no reader until a writer migrates it (merge does).
add_tunedb_test(list_version1 2 "schema version 1 is older than [0-9]+; open it read-write once" ARGS list --db ${dbs}/v1.db)
# A shard database of another schema version: a source of an older one is refused (it is opened
# read-only, so never migrated here; `tune` or `tunedb merge` into it migrates it), the target
# left as it was.
add_tunedb_test(merge_version1_source 2 "v1.db: [^\n]*schema version 1 is older than [0-9]+; open it read-write once"
  ARGS merge ${dbs}/a.db ${dbs}/v1.db UNCHANGED ${dbs}/a.db)
