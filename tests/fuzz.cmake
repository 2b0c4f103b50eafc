# The fuzz targets (fuzz/targets.cmake): their plain reproducers build in
# every build, and ctest runs each over its seed corpus (corpus/<name>)
# and its regression inputs (tests/fuzz/<name>): every input that ever
# found a bug stays a test.
include(${PROJECT_SOURCE_DIR}/fuzz/targets.cmake)

# spec_loader also runs over the hostile specs of the loader's own tests.
add_test(NAME fuzz_corpus_spec_loader_bad
         COMMAND repro_spec_loader ${PROJECT_SOURCE_DIR}/tests/bad
                 ${PROJECT_SOURCE_DIR}/tests/bad/inc)

# Open findings (tests/fuzz-open/<target>/<bug>, see its README): each
# input must still make its target report a finding.  When a fix makes
# one pass, this test fails: move the input to tests/fuzz/<target>/,
# where it guards the fix.
file(GLOB ISACHECK_FUZZ_OPEN ${CMAKE_CURRENT_SOURCE_DIR}/fuzz-open/*/*)
foreach(input ${ISACHECK_FUZZ_OPEN})
  get_filename_component(dir ${input} DIRECTORY)
  get_filename_component(target ${dir} NAME)
  get_filename_component(bug ${input} NAME)
  if(TARGET repro_${target})
    add_test(NAME fuzz_open_${target}_${bug}
             COMMAND sh -c "! \"$<TARGET_FILE:repro_${target}>\" \"${input}\" >/dev/null 2>&1")
  endif()
endforeach()

# repro's --bench (bench/fuzz-body reads its line): every seed read, the
# passes and the five rounds reported; --bench=0 only reads; a bad count
# is refused with exit 2.
if(TARGET repro_roundtrip_etnaviv)
  add_test(NAME fuzz_repro_bench
           COMMAND repro_roundtrip_etnaviv --bench=1 ${PROJECT_SOURCE_DIR}/corpus/roundtrip_etnaviv)
  set_tests_properties(fuzz_repro_bench PROPERTIES PASS_REGULAR_EXPRESSION
    "^[1-9][0-9]* inputs, 1 passes a round, best of 5 rounds: [0-9]+ ns an input \\(rounds:( [0-9]+)( [0-9]+)( [0-9]+)( [0-9]+)( [0-9]+)\\)\n$")
  add_test(NAME fuzz_repro_bench_read_only
           COMMAND repro_roundtrip_etnaviv --bench=0 ${PROJECT_SOURCE_DIR}/corpus/roundtrip_etnaviv)
  set_tests_properties(fuzz_repro_bench_read_only PROPERTIES PASS_REGULAR_EXPRESSION
    "^[1-9][0-9]* inputs, 0 passes a round\n$")
  add_test(NAME fuzz_repro_bench_bad
           COMMAND sh -c "\"$<TARGET_FILE:repro_roundtrip_etnaviv>\" --bench=x; test $? = 2")
  # FUZZ_RECORD and --replay (bench/fuzz-replay): tests/repro-replay
  add_test(NAME fuzz_repro_replay
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/repro-replay $<TARGET_FILE:repro_roundtrip_etnaviv>
                   ${PROJECT_SOURCE_DIR}/corpus/roundtrip_etnaviv)
endif()
