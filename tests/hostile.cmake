# The resource model held end to end: hostile inputs made at run time and
# given to the isacheck command under a watchdog and a memory ceiling
# (tests/test_hostile.c, docs/model.md "Limits").
isacheck_test(test_hostile)
add_dependencies(test_hostile isacheck)
