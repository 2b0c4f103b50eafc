# fuzz/targets.cmake - every fuzz target, one row each, and how each is
# built.  Included from tests/fuzz.cmake, so that it runs in every build:
#
#   repro_<name>  always: the plain reproducer (fuzz/repro.c); ctest runs
#                 it over corpus/<name> and tests/fuzz/<name>
#   fuzz_<name>   with ISACHECK_FUZZ (preset "fuzz") or ISACHECK_FUZZ_ENGINE
#                 (ClusterFuzzLite / OSS-Fuzz: $LIB_FUZZING_ENGINE): libFuzzer
#   afl_<name>    with ISACHECK_AFL (preset "afl"): AFL++ persistent mode
#                 (fuzz/afl_driver.c)
#   replay_<name> with ISACHECK_FUZZ_REPLAY, SPEC_COVERAGE rows only: the
#                 reproducer built as the libFuzzer target's body is
#                 (FUZZ_SPEC_COVERAGE: the round trips' memory, the spec's
#                 counters), without an engine or instrumentation, to
#                 replay an engine's recorded run (bench/fuzz-replay)
#
# fuzz_ and afl_ binaries go to <build>/fuzz/.  By convention a target's
# dictionary is fuzz/<name>.dict, its libFuzzer options fuzz/<name>.options
# and its seed corpus corpus/<name>/ (fuzz/make-corpus writes the word
# targets' seeds from ../shared/mesa/vectors).
#
# A row:  isacheck_fuzz_target(NAME SOURCE file.c [SPEC spec] [SPEC2 spec]
#                              [NO_MATCH MESA|IR3|AFUC] [STRICT_SPEC]
#                              [SPEC_COVERAGE [OUTCOMES [CLASSIFIER_EDGES]]]
#                              [ORACLE ISA] [LIBS lib...] [SOURCES file.c...]
#                              [REQUIRES path...])
# ORACLE: the target compares with Mesa's own disassembler for ISA (ir3,
# etnaviv, afuc, a2xx, midgard: FUZZ_ORACLE_ISA), linking the mesa_oracle
# library built from ../shared/oracles/mesa; the row is left out where
# that is absent (ISACHECK_HAVE_ORACLE, top CMakeLists.txt).
# SOURCES: more files of fuzz/ linked into the target (e.g. the
# reference mapping a test shares, fuzz/refmap_<isa>.c); like
# fuzz/support.c they are compiled once for all the targets of a kind,
# so they may not use a row's definitions (isacheck_fuzz_shared_objects).
# Only SOURCE, the target's own file, sees FUZZ_TARGET, FUZZ_SPEC, ...
# (until 2026-12-04 support.c was compiled 74 times in a fuzz build).
# SPEC_COVERAGE: the input is words or text of the one spec; under
# libFuzzer the target steers by what of the spec its decodings reached
# (fuzz_spec_coverage in fuzz/fuzz.h, FUZZ_SPEC_COVERAGE) instead of by
# the edges of our libraries, which it links as copies without edge
# counters (<lib>_nocov, top CMakeLists.txt), and of fuzz/support.c; the
# target's own file keeps its edges, unless OUTCOMES: then it has none
# either, and marks how its checks went among the spec's counters
# (fuzz_spec_coverage_outcome; fuzz/roundtrip.c, whose memory of
# instructions would make its edges depend on what the process checked
# before), and neither has the classifier it links (src/codec/classify.c
# as an object of its own, fuzzobj_classify_nocov below; the one in
# <lib>_nocov keeps its edges for the other rows), unless
# CLASSIFIER_EDGES: ir3's, whose search reached the spec's last hundred
# things later without them (docs/fuzzing.md, "Coverage of the spec").
# (The program round trips are OUTCOMES rows too: their walker recalls
# parts from a memory, so the classifier's edges would depend on what
# the process read before, and their file's edges, set on every run,
# cost the engine its bookkeeping of them; fuzz/roundtrip_program.c.)
# Reproducers and AFL++ builds are left as they were.
# Left off where the input is a spec (the interpreter's edges are then
# what differs from input to input) and on the oracle targets, whose
# comparison with Mesa's text is the printer's paths.
# STRICT_SPEC: a hole in the spec (a bit the active cases account for
# nowhere, so words differing there decode alike) is a finding; set for
# ours, not for Mesa's files, whose holes `isacheck check` reports.
# A spec is "shared:REL" (under ../shared, found at run time: see fuzz.h)
# or "repo:REL" (under the source tree).  REQUIRES names files (relative
# to the source tree) without which the row is left out: our own ISAs and
# reference codecs, written in parallel, enable their rows by appearing
# (re-run cmake).

option(ISACHECK_AFL "Build the AFL++ fuzz targets (CC=afl-clang-fast or afl-clang-lto)" OFF)
option(ISACHECK_FUZZ_REPLAY "Build replay_<name>: the SPEC_COVERAGE targets' bodies as under libFuzzer, without it (bench/fuzz-replay)" OFF)
set(ISACHECK_FUZZ_ENGINE "" CACHE STRING
    "Link flags of the libFuzzer-style engine for fuzz_* targets ($LIB_FUZZING_ENGINE); empty: -fsanitize=fuzzer when ISACHECK_FUZZ is on")

set(ISACHECK_FUZZ_DIR ${PROJECT_SOURCE_DIR}/fuzz)
set(ISACHECK_FUZZ_TARGETS "" CACHE INTERNAL "")

# The text target checks words against the display's invertibility once
# the codec can tell it (codec_display_invertible): switched on by its
# appearance in codec.h.
file(READ ${PROJECT_SOURCE_DIR}/src/codec/codec.h ISACHECK_CODEC_H)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/src/codec/codec.h)
set(ISACHECK_FUZZ_BUILD_DEFS "")
if(ISACHECK_CODEC_H MATCHES "codec_display_invertible")
  list(APPEND ISACHECK_FUZZ_BUILD_DEFS FUZZ_HAVE_DISPLAY_INVERTIBLE)
endif()
# The reproducers' directory (a finding's report names its reproducer),
# the CLI and where specs are found: the same for every target.
set(ISACHECK_FUZZ_REPRO_DIR ${CMAKE_CURRENT_BINARY_DIR})
list(APPEND ISACHECK_FUZZ_BUILD_DEFS
     FUZZ_REPRO_DIR="${ISACHECK_FUZZ_REPRO_DIR}"
     ISACHECK_BINARY="$<TARGET_FILE:isacheck>"
     ISACHECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
     ISACHECK_SHARED_DIR="${ISACHECK_SHARED_DIR}")

# What every target of a build and kind shares, compiled once: the
# harness (fuzz/support.c), the SOURCES rows name (reference and oracle
# mappings, generators) and the engine's main (repro.c, afl_driver.c).
# They may use only the build's definitions (ISACHECK_FUZZ_BUILD_DEFS),
# never a row's (FUZZ_TARGET, FUZZ_SPEC, ...): configuring fails if one
# does.  A kind: repro, afl, fuzz (libFuzzer's edge counters), fuzz_nocov
# (the harness of SPEC_COVERAGE rows: FUZZ_SPEC_COVERAGE, no counters),
# replay (FUZZ_SPEC_COVERAGE in the harness, no engine).
# Sets out_var to the objects of files, each its own object library
# fuzzobj_<kind>_<file>, which links libs for their headers (the first
# row to use a file decides them: a file needs the same ones wherever
# it goes).
function(isacheck_fuzz_shared_objects kind out_var libs)
  set(objects "")
  foreach(file ${ARGN})
    string(REGEX REPLACE "[^A-Za-z0-9_]" "_" stem "${file}")
    set(lib fuzzobj_${kind}_${stem})
    if(NOT TARGET ${lib})
      set(path ${ISACHECK_FUZZ_DIR}/${file})
      # (the harness alone is built both with FUZZ_SPEC_COVERAGE and
      # without; the others once for both)
      set(row "TARGET|SPEC|SPEC2|NO_MATCH|STRICT_SPEC|ORACLE_ISA|REPRO")
      if(NOT file STREQUAL "support.c")
        string(APPEND row "|SPEC_COVERAGE")
      endif()
      file(STRINGS ${path} own REGEX "FUZZ_(${row})([^A-Z_]|$)")
      if(own)
        list(GET own 0 line)
        message(FATAL_ERROR "fuzz/${file} is shared by fuzz targets (compiled once) but "
                "uses a row's own definition: ${line}")
      endif()
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${path})
      add_library(${lib} OBJECT ${path})
      target_include_directories(${lib} PRIVATE ${ISACHECK_FUZZ_DIR} ${PROJECT_SOURCE_DIR}/src)
      target_link_libraries(${lib} PRIVATE ${libs})
      target_compile_definitions(${lib} PRIVATE ${ISACHECK_FUZZ_BUILD_DEFS})
      target_compile_options(${lib} PRIVATE ${ISACHECK_WARNINGS})
      if(kind STREQUAL "fuzz_nocov")
        target_compile_definitions(${lib} PRIVATE FUZZ_SPEC_COVERAGE)
        target_compile_options(${lib} PRIVATE ${ISACHECK_FUZZ_NO_COV_FLAGS})
      elseif(kind STREQUAL "replay" AND file STREQUAL "support.c")
        target_compile_definitions(${lib} PRIVATE FUZZ_SPEC_COVERAGE)
      elseif(kind STREQUAL "fuzz" AND NOT ISACHECK_FUZZ_ENGINE)
        target_compile_options(${lib} PRIVATE -fsanitize=fuzzer)
      endif()
    endif()
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  set(${out_var} ${objects} PARENT_SCOPE)
endfunction()

function(isacheck_fuzz_target name)
  cmake_parse_arguments(T "STRICT_SPEC;EXACT_DISPLAYS;SPEC_COVERAGE;OUTCOMES;CLASSIFIER_EDGES"
                        "SOURCE;SPEC;SPEC2;NO_MATCH;ORACLE"
                        "LIBS;SOURCES;REQUIRES" ${ARGN})
  if(T_ORACLE AND NOT ISACHECK_HAVE_ORACLE)
    return()
  endif()
  foreach(req ${T_REQUIRES})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${req})
      return()
    endif()
  endforeach()
  if(NOT T_NO_MATCH)
    set(T_NO_MATCH MESA)
  endif()
  set(defs ${ISACHECK_FUZZ_BUILD_DEFS}
      FUZZ_TARGET="${name}"
      FUZZ_NO_MATCH=CODEC_NO_MATCH_${T_NO_MATCH})
  if(T_STRICT_SPEC)
    list(APPEND defs FUZZ_STRICT_SPEC)
  endif()
  if(T_SPEC)
    list(APPEND defs FUZZ_SPEC="${T_SPEC}")
  endif()
  if(T_SPEC2)
    list(APPEND defs FUZZ_SPEC2="${T_SPEC2}")
  endif()
  if(T_ORACLE)
    list(APPEND defs FUZZ_ORACLE_ISA="${T_ORACLE}")
    list(APPEND T_LIBS mesa_oracle)
  endif()
  set(libs isaspec isacheck_check isacheck_codec ${T_LIBS})

  set(kinds repro)
  if(ISACHECK_FUZZ OR ISACHECK_FUZZ_ENGINE)
    list(APPEND kinds fuzz)
  endif()
  if(ISACHECK_AFL)
    list(APPEND kinds afl)
  endif()
  if(ISACHECK_FUZZ_REPLAY AND T_SPEC_COVERAGE)
    list(APPEND kinds replay)
  endif()
  foreach(kind ${kinds})
    set(exe ${kind}_${name})
    set(kind_libs ${libs})
    # The target's own file is compiled for it; what targets share
    # (fuzz/support.c, the SOURCES, the engine's main) once per kind of
    # binary (isacheck_fuzz_shared_objects).
    set(main "")
    if(kind STREQUAL "repro" OR kind STREQUAL "replay")
      set(main repro.c)
    elseif(kind STREQUAL "afl")
      set(main afl_driver.c)
    endif()
    set(harness_kind ${kind})
    if(kind STREQUAL "fuzz" AND T_SPEC_COVERAGE AND TARGET isacheck_codec_nocov)
      # our libraries without their edge counters (top CMakeLists.txt),
      # and the harness (the checks, the report) without them too
      list(TRANSFORM libs REPLACE "^(isaspec|isacheck_check|isacheck_codec)$" "\\1_nocov"
           OUTPUT_VARIABLE kind_libs)
      set(harness_kind fuzz_nocov)
    endif()
    isacheck_fuzz_shared_objects(${harness_kind} harness "${kind_libs}" support.c)
    isacheck_fuzz_shared_objects(${kind} extras "${kind_libs}" ${T_SOURCES} ${main})
    if(harness_kind STREQUAL "fuzz_nocov" AND T_OUTCOMES AND NOT T_CLASSIFIER_EDGES)
      # The classifier without its edge counters: a recalled instruction
      # runs none of it, so its edges too depended on what the process
      # had checked before; and its look-up branches on no outcome, so
      # they told how many candidates a list held and little else, at
      # about a third of a round trip's features a run (docs/fuzzing.md,
      # "Coverage of the spec").  Its comparisons stay traced.  Being an
      # object of the program, it defines every symbol of classify.c
      # before <lib>_nocov is searched, so the archive's copy (with
      # edges) is never taken.
      if(NOT TARGET fuzzobj_classify_nocov)
        add_library(fuzzobj_classify_nocov OBJECT ${PROJECT_SOURCE_DIR}/src/codec/classify.c)
        target_link_libraries(fuzzobj_classify_nocov PRIVATE isacheck_codec_nocov)
        target_compile_definitions(fuzzobj_classify_nocov PRIVATE
                                   $<TARGET_PROPERTY:isacheck_codec_nocov,COMPILE_DEFINITIONS>)
        target_compile_options(fuzzobj_classify_nocov PRIVATE
                               $<TARGET_PROPERTY:isacheck_codec_nocov,COMPILE_OPTIONS>)
      endif()
      list(APPEND harness $<TARGET_OBJECTS:fuzzobj_classify_nocov>)
    endif()
    add_executable(${exe} ${ISACHECK_FUZZ_DIR}/${T_SOURCE} ${harness} ${extras})
    if(kind STREQUAL "afl")
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    elseif(kind STREQUAL "replay")
      target_compile_definitions(${exe} PRIVATE FUZZ_SPEC_COVERAGE)
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    elseif(kind STREQUAL "repro")
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${ISACHECK_FUZZ_REPRO_DIR})
    else()
      if(harness_kind STREQUAL "fuzz_nocov")
        # the target knows (fuzz/roundtrip.c: the memory of instructions)
        target_compile_definitions(${exe} PRIVATE FUZZ_SPEC_COVERAGE)
      endif()
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
      if(ISACHECK_FUZZ_ENGINE)
        separate_arguments(engine UNIX_COMMAND "${ISACHECK_FUZZ_ENGINE}")
      else()
        set(engine -fsanitize=fuzzer)
        target_compile_options(${exe} PRIVATE -fsanitize=fuzzer)
      endif()
      if(harness_kind STREQUAL "fuzz_nocov" AND T_OUTCOMES)
        # after the engine's flags, which turn the counters on
        target_compile_options(${exe} PRIVATE ${ISACHECK_FUZZ_NO_COV_FLAGS})
      endif()
      target_link_libraries(${exe} PRIVATE ${engine})
    endif()
    # src/: for header-only glue such as cli/prove_ops.h
    target_include_directories(${exe} PRIVATE ${ISACHECK_FUZZ_DIR} ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${exe} PRIVATE ${kind_libs})
    target_compile_definitions(${exe} PRIVATE ${defs})
    target_compile_options(${exe} PRIVATE ${ISACHECK_WARNINGS})
  endforeach()

  # The seed corpus and every input that ever found a bug, as a test.
  set(dirs "")
  foreach(d ${PROJECT_SOURCE_DIR}/corpus/${name} ${PROJECT_SOURCE_DIR}/tests/fuzz/${name})
    if(IS_DIRECTORY ${d})
      list(APPEND dirs ${d})
    endif()
  endforeach()
  if(dirs)
    add_test(NAME fuzz_corpus_${name} COMMAND repro_${name} ${dirs})
    set_tests_properties(fuzz_corpus_${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
    # text targets: the same corpus, every leaf Z3 proves held word for
    # word (fuzz/with-display-verdicts; lint --displays takes 1-15 s)
    if(T_EXACT_DISPLAYS)
      add_test(NAME fuzz_corpus_${name}_exact
               COMMAND ${ISACHECK_FUZZ_DIR}/with-display-verdicts $<TARGET_FILE:isacheck>
                       $<TARGET_FILE:repro_${name}> ${dirs})
      # the tally names what decided (a verdict file not used fails it)
      set_tests_properties(fuzz_corpus_${name}_exact PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                           FAIL_REGULAR_EXPRESSION "by the static check")
    endif()
  endif()
  set(ISACHECK_FUZZ_TARGETS ${ISACHECK_FUZZ_TARGETS} ${name} CACHE INTERNAL "")
endfunction()

# ------------------------------------------------------------------ rows
isacheck_fuzz_target(spec_loader SOURCE spec_loader.c)
isacheck_fuzz_target(expr SOURCE expr.c)
isacheck_fuzz_target(cache SOURCE cache.c)

# The meaning proofs (Z3) against brute force on small specs the input
# chooses (fuzz/semantic_gen.c, shared with tests/test_semantic.c): the
# overrides' and asserts' verdicts.
isacheck_fuzz_target(semantic SOURCE semantic.c SOURCES semantic_gen.c)
# The display proofs (Z3) against every word of 16-bit specs the input
# chooses (fuzz/display_gen.c, shared with tests/test_displays.c).
isacheck_fuzz_target(displays SOURCE displays.c SOURCES display_gen.c semantic_gen.c)
# diff's proofs against brute force on generated spec pairs (Z3)
isacheck_fuzz_target(spec_diff SOURCE spec_diff.c SOURCES diff_gen.c semantic_gen.c)

# Mesa's files, as our users have them (../shared/mesa).
isacheck_fuzz_target(roundtrip_mesa_ir3 SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES CLASSIFIER_EDGES
                     SPEC shared:mesa/src/freedreno/isa/ir3.xml NO_MATCH IR3)
isacheck_fuzz_target(roundtrip_mesa_etnaviv SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES
                     SPEC shared:mesa/src/etnaviv/isa/etnaviv.xml)
isacheck_fuzz_target(roundtrip_mesa_afuc SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES
                     SPEC shared:mesa/src/freedreno/afuc/afuc.xml NO_MATCH AFUC)
isacheck_fuzz_target(text_mesa_ir3 SOURCE text.c SPEC_COVERAGE EXACT_DISPLAYS
                     SPEC shared:mesa/src/freedreno/isa/ir3.xml NO_MATCH IR3)
isacheck_fuzz_target(text_mesa_etnaviv SOURCE text.c SPEC_COVERAGE EXACT_DISPLAYS
                     SPEC shared:mesa/src/etnaviv/isa/etnaviv.xml)
isacheck_fuzz_target(text_mesa_afuc SOURCE text.c SPEC_COVERAGE
                     SPEC shared:mesa/src/freedreno/afuc/afuc.xml NO_MATCH AFUC)
isacheck_fuzz_target(asm_mesa_ir3 SOURCE asm_text.c SPEC_COVERAGE
                     SPEC shared:mesa/src/freedreno/isa/ir3.xml NO_MATCH IR3)
isacheck_fuzz_target(asm_mesa_etnaviv SOURCE asm_text.c SPEC_COVERAGE
                     SPEC shared:mesa/src/etnaviv/isa/etnaviv.xml)
isacheck_fuzz_target(asm_mesa_afuc SOURCE asm_text.c SPEC_COVERAGE
                     SPEC shared:mesa/src/freedreno/afuc/afuc.xml NO_MATCH AFUC)
isacheck_fuzz_target(straight_mesa_ir3 SOURCE straight.c SPEC_COVERAGE
                     SPEC shared:mesa/src/freedreno/isa/ir3.xml NO_MATCH IR3)
isacheck_fuzz_target(straight_mesa_etnaviv SOURCE straight.c SPEC_COVERAGE
                     SPEC shared:mesa/src/etnaviv/isa/etnaviv.xml)
isacheck_fuzz_target(straight_mesa_afuc SOURCE straight.c SPEC_COVERAGE
                     SPEC shared:mesa/src/freedreno/afuc/afuc.xml NO_MATCH AFUC)

# Ours (isa/), each enabled when its file exists.
isacheck_fuzz_target(roundtrip_etnaviv SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES
                     SPEC repo:isa/etnaviv.xml STRICT_SPEC
                     REQUIRES isa/etnaviv.xml)
isacheck_fuzz_target(straight_etnaviv SOURCE straight.c SPEC_COVERAGE SPEC repo:isa/etnaviv.xml
                     REQUIRES isa/etnaviv.xml)
isacheck_fuzz_target(roundtrip_a2xx SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES
                     SPEC repo:isa/a2xx.xml STRICT_SPEC
                     REQUIRES isa/a2xx.xml)
isacheck_fuzz_target(roundtrip_midgard SOURCE roundtrip.c SPEC_COVERAGE OUTCOMES
                     SPEC repo:isa/midgard.xml STRICT_SPEC
                     REQUIRES isa/midgard.xml)
isacheck_fuzz_target(text_etnaviv SOURCE text.c SPEC_COVERAGE SPEC repo:isa/etnaviv.xml STRICT_SPEC
                     EXACT_DISPLAYS REQUIRES isa/etnaviv.xml)
isacheck_fuzz_target(text_a2xx SOURCE text.c SPEC_COVERAGE SPEC repo:isa/a2xx.xml STRICT_SPEC
                     EXACT_DISPLAYS REQUIRES isa/a2xx.xml)
isacheck_fuzz_target(text_midgard SOURCE text.c SPEC_COVERAGE SPEC repo:isa/midgard.xml STRICT_SPEC
                     EXACT_DISPLAYS REQUIRES isa/midgard.xml)
# triage's input readers (src/cli/triage_input.c), on ours: a2xx's
# 96-bit words and programs, Midgard's tag-framed bundles
isacheck_fuzz_target(triage_input SOURCE triage_input.c SPEC repo:isa/a2xx.xml
                     SPEC2 repo:isa/midgard.xml STRICT_SPEC LIBS isacheck_triage
                     SOURCES ../src/cli/triage_input.c ../src/cli/hexwords.c ../src/cli/args.c
                             ../src/cli/triage_report.c ../src/cli/out.c
                     REQUIRES isa/a2xx.xml isa/midgard.xml)
isacheck_fuzz_target(crossspec_etnaviv SOURCE crossspec.c SPEC_COVERAGE SPEC repo:isa/etnaviv.xml
                     SPEC2 shared:mesa/src/etnaviv/isa/etnaviv.xml
                     REQUIRES isa/etnaviv.xml)

# Whole programs through their <program>: walk, re-encode, walk again.
isacheck_fuzz_target(roundtrip_program_a2xx SOURCE roundtrip_program.c SPEC_COVERAGE OUTCOMES
                     SPEC repo:isa/a2xx.xml
                     REQUIRES isa/a2xx.xml)
isacheck_fuzz_target(roundtrip_program_midgard SOURCE roundtrip_program.c SPEC_COVERAGE OUTCOMES
                     SPEC repo:isa/midgard.xml REQUIRES isa/midgard.xml)

# The spec codec against the hand-written reference codec (src/ref), both
# directions: each needs its fuzz/diff_<isa>.c on the reference's API.
isacheck_fuzz_target(diff_etnaviv SOURCE diff_etnaviv.c SPEC_COVERAGE SPEC repo:isa/etnaviv.xml
                     LIBS isacheck_ref SOURCES refmap_etnaviv.c
                     REQUIRES isa/etnaviv.xml src/ref/etnaviv.h fuzz/diff_etnaviv.c)
isacheck_fuzz_target(diff_a2xx SOURCE diff_a2xx.c SPEC_COVERAGE SPEC repo:isa/a2xx.xml
                     LIBS isacheck_ref SOURCES refmap_a2xx.c
                     REQUIRES isa/a2xx.xml src/ref/a2xx.h fuzz/diff_a2xx.c)
isacheck_fuzz_target(diff_midgard SOURCE diff_midgard.c SPEC_COVERAGE SPEC repo:isa/midgard.xml
                     LIBS isacheck_ref SOURCES refmap_midgard.c
                     REQUIRES isa/midgard.xml src/ref/midgard.h fuzz/diff_midgard.c)

# isacheck against Mesa's own disassemblers (../shared/oracles/mesa): the
# same words printed by both, byte for byte, at every generation, with
# and without errors and branch labels, in each no-match style.
isacheck_fuzz_target(oracle_mesa_ir3 SOURCE oracle_isaspec.c SOURCES oracle.c ORACLE ir3
                     SPEC shared:mesa/src/freedreno/isa/ir3.xml NO_MATCH IR3)
isacheck_fuzz_target(oracle_mesa_etnaviv SOURCE oracle_isaspec.c SOURCES oracle.c ORACLE etnaviv
                     SPEC shared:mesa/src/etnaviv/isa/etnaviv.xml)
isacheck_fuzz_target(oracle_mesa_afuc SOURCE oracle_isaspec.c SOURCES oracle.c ORACLE afuc
                     SPEC shared:mesa/src/freedreno/afuc/afuc.xml NO_MATCH AFUC)
# Whole a2xx programs (isa/a2xx.xml's <program>s, stages "vs" and "fs")
# against Mesa's disasm_a2xx(): fuzz/oracle_a2xx_compare.h says what must
# hold when either side refuses.
isacheck_fuzz_target(oracle_a2xx SOURCE oracle_a2xx.c SOURCES oracle_a2xx_compare.c oracle.c ORACLE a2xx
                     SPEC repo:isa/a2xx.xml LIBS isacheck_ref
                     REQUIRES isa/a2xx.xml src/ref/a2xx.h)

# isa/midgard.xml against Mesa's own Midgard disassembler, whole programs
# compared in meaning (fuzz/oraclemap_midgard.c, shared with
# tests/test_oracle_midgard.c).
isacheck_fuzz_target(oracle_midgard SOURCE oracle_midgard.c SOURCES oraclemap_midgard.c
                     ORACLE midgard SPEC repo:isa/midgard.xml LIBS isacheck_ref
                     REQUIRES isa/midgard.xml src/ref/midgard.h)

# The floor bench/fuzz measures every target against: libFuzzer running a
# body that does nothing, built with the same flags as the fuzz_* binaries.
if(ISACHECK_FUZZ AND NOT ISACHECK_FUZZ_ENGINE)
  add_executable(bench_fuzz_floor ${PROJECT_SOURCE_DIR}/bench/fuzz_floor.c)
  set_target_properties(bench_fuzz_floor PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  target_compile_options(bench_fuzz_floor PRIVATE -fsanitize=fuzzer ${ISACHECK_WARNINGS})
  target_link_libraries(bench_fuzz_floor PRIVATE -fsanitize=fuzzer)
endif()
