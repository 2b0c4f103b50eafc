# scripts_lint: every shell script of the repository (found by its
# shebang, so new ones are covered) through shellcheck, and the YAML files
# (the CI templates of docs/ci/, .clusterfuzzlite/project.yaml) parsed and
# checked for structure, the shell inside them shellchecked too
# (tests/lint-scripts, tests/lint-yaml.py).  Skipped (77) where shellcheck
# or PyYAML is missing, except under CI=true, where that fails.
add_test(NAME scripts_lint
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/lint-scripts ${PROJECT_SOURCE_DIR})
set_tests_properties(scripts_lint PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
