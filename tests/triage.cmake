# Blob triage (issue 9): the library on synthetic blobs and Mesa's
# vectors, the command's inputs and errors, whole Midgard programs built
# by the reference generator (isacheck_ref), and the HTML report drawn by
# a headless browser (skipped without chromium unless CI=true).
isacheck_test(test_triage)
target_link_libraries(test_triage PRIVATE isacheck_triage isacheck_ref)
add_dependencies(test_triage isacheck)
isacheck_test(test_triage_html)
add_dependencies(test_triage_html isacheck)
