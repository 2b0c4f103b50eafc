# isacheck diff: edit pairs with exact reports (tests/diff/), both engines,
# witnesses decoded by src/codec, random pairs against enumeration.
# (the random pairs and their judge: fuzz/diff_gen.c, shared with the fuzz
# target "spec_diff")
isacheck_test(test_diff ${PROJECT_SOURCE_DIR}/fuzz/diff_gen.c ${PROJECT_SOURCE_DIR}/fuzz/semantic_gen.c)
target_link_libraries(test_diff PRIVATE isacheck_check isacheck_codec)
target_include_directories(test_diff PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/fuzz)
add_dependencies(test_diff isacheck)
