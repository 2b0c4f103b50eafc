# isa/midgard.xml against the hand-written reference codec (src/ref/midgard.c).
isacheck_test(test_isa_midgard)
target_link_libraries(test_isa_midgard PRIVATE isacheck_codec isacheck_ref)
# the reference-to-spec field mapping it shares with fuzz/diff_midgard.c
target_sources(test_isa_midgard PRIVATE ${PROJECT_SOURCE_DIR}/fuzz/refmap_midgard.c)
target_include_directories(test_isa_midgard PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
