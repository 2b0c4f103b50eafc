# The program-framing extension (docs/framing.md): loader, lint, codec walk.
isacheck_test(test_framing)
target_link_libraries(test_framing PRIVATE isacheck_codec)
add_dependencies(test_framing isacheck)
