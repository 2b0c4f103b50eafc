# isa/etnaviv.xml against Mesa's XML, Mesa's vectors and the reference codec
# (tests/test_isa_etnaviv.c; ISACHECK_ETNA_WORDS sets the random sample).
isacheck_test(test_isa_etnaviv)
target_link_libraries(test_isa_etnaviv PRIVATE isacheck_codec isacheck_ref)
# the reference-to-spec field mapping it shares with fuzz/diff_etnaviv.c
target_sources(test_isa_etnaviv PRIVATE ${PROJECT_SOURCE_DIR}/fuzz/refmap_etnaviv.c)
target_include_directories(test_isa_etnaviv PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)

# `isacheck doc`: exact output on a small spec; docs/isa/etnaviv.md current.
isacheck_test(test_doc)
add_dependencies(test_doc isacheck)

# A million random words take ~15 s plain but minutes under the
# sanitizers on a busy machine: there the cross-checks run on 200,000.
if(ISACHECK_SANITIZE)
  set_tests_properties(test_isa_etnaviv PROPERTIES ENVIRONMENT "ISACHECK_ETNA_WORDS=200000")
endif()
