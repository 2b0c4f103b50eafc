# src/triage: find and cluster what a spec does not explain in vendor
# binaries (src/triage/triage.h).  Included by the top-level CMakeLists.
# triage_queue analyses on threads (queue.c).
file(GLOB ISACHECK_TRIAGE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
add_library(isacheck_triage STATIC ${ISACHECK_TRIAGE_SOURCES})
target_include_directories(isacheck_triage PUBLIC ${CMAKE_CURRENT_LIST_DIR})
find_package(Threads REQUIRED)
target_link_libraries(isacheck_triage PUBLIC isacheck_codec Threads::Threads)
target_compile_options(isacheck_triage PRIVATE ${ISACHECK_WARNINGS})
list(APPEND ISACHECK_CLI_LIBS isacheck_triage)
