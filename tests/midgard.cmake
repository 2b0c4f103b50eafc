# isa/midgard.xml against the hand-written reference codec (src/ref/midgard.c).
isacheck_test(test_isa_midgard)
target_link_libraries(test_isa_midgard PRIVATE isacheck_codec isacheck_ref)
# the reference-to-spec field mapping it shares with fuzz/diff_midgard.c
target_sources(test_isa_midgard PRIVATE ${PROJECT_SOURCE_DIR}/fuzz/refmap_midgard.c)
target_include_directories(test_isa_midgard PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)

# isa/midgard.xml against Mesa's own Midgard disassembler
# (../shared/oracles/mesa), through the mapping it shares with the fuzz
# target oracle_midgard (fuzz/oraclemap_midgard.c); skipped without it.
if(ISACHECK_HAVE_ORACLE)
  isacheck_oracle_test(test_oracle_midgard ${PROJECT_SOURCE_DIR}/fuzz/oraclemap_midgard.c)
else()
  isacheck_oracle_test(test_oracle_midgard)
endif()
target_link_libraries(test_oracle_midgard PRIVATE isacheck_ref)
target_include_directories(test_oracle_midgard PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
