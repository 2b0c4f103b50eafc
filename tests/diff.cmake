# isacheck diff: edit pairs with exact reports (tests/diff/), both engines,
# witnesses decoded by src/codec, random pairs against enumeration.
isacheck_test(test_diff)
target_link_libraries(test_diff PRIVATE isacheck_check isacheck_codec)
add_dependencies(test_diff isacheck)
