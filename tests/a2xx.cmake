# isa/a2xx.xml against the real words of ../shared/blob/a2xx.tsv and the
# hand-written reference codec (src/ref/a2xx.c).
isacheck_test(test_isa_a2xx)
target_link_libraries(test_isa_a2xx PRIVATE isacheck_codec isacheck_ref)
# the reference-to-spec field mapping it shares with fuzz/diff_a2xx.c
target_sources(test_isa_a2xx PRIVATE ${PROJECT_SOURCE_DIR}/fuzz/refmap_a2xx.c)
target_include_directories(test_isa_a2xx PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
# A million random words per root, decoded and re-encoded by both codecs:
# a few seconds in a plain build, minutes under ASan+UBSan on a busy machine.
set_tests_properties(test_isa_a2xx PROPERTIES TIMEOUT 900)

# Whole programs against Mesa's own disasm_a2xx() (../shared/oracles/mesa):
# 100,000 random programs of the reference generator, both stages, and the
# blob's; the comparison is the fuzz target oracle_a2xx's.
isacheck_oracle_test(test_oracle_a2xx ${PROJECT_SOURCE_DIR}/fuzz/oracle_a2xx_compare.c
                     ${PROJECT_SOURCE_DIR}/fuzz/oracle.c)
target_link_libraries(test_oracle_a2xx PRIVATE isacheck_ref)
# About 15 s of CPU plain; some 2.5 minutes under ASan+UBSan (7 beside a
# fuzzer on two cores).
if(TARGET test_oracle_a2xx AND ISACHECK_SANITIZE)
  set_tests_properties(test_oracle_a2xx PROPERTIES TIMEOUT 1800)
endif()
