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
