#!/usr/bin/env python3
"""tests/lint-yaml.py - part of ctest's scripts_lint (tests/lint-scripts).

    tests/lint-yaml.py SCRIPT_DIR FILE.yml...

Parses every YAML file given (PyYAML, with a duplicated key an error) and
checks the structure of those it knows by name:

  .clusterfuzzlite/project.yaml   an OSS-Fuzz project: language c, lists
                                  of known sanitizers and engines, no
                                  unknown key
  *-github.yml, .github/workflows/*
                                  a GitHub workflow: on, jobs, each job
                                  with runs-on and steps, each step one
                                  of uses and run
  *-gitlab.yml, .gitlab-ci.yml    GitLab CI jobs: each with a script (or
                                  trigger, extends), stages that exist

The shell of each workflow step (`run`) and GitLab script is written to
SCRIPT_DIR, one file each, for tests/lint-scripts to give to shellcheck;
the list goes to SCRIPT_DIR/index (file, then where it came from).
Exit 0 clean, 1 findings, 77 PyYAML missing.
"""
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("lint-yaml: PyYAML is missing (Debian package python3-yaml)", file=sys.stderr)
    sys.exit(77)


class UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a mapping with the same key twice (PyYAML
    keeps the last one silently)."""


def _construct_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found duplicate key %r (first at line %d)" % (key, seen[key] + 1),
                key_node.start_mark)
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

findings = []


def finding(path, msg):
    findings.append("%s: %s" % (path, msg))


# ----------------------------------------------------------------- OSS-Fuzz

PROJECT_KEYS = {
    "homepage", "language", "primary_contact", "auto_ccs", "main_repo",
    "vendor_ccs", "sanitizers", "architectures", "fuzzing_engines",
    "help_url", "builds_per_day", "file_github_issue", "coverage_extra_args",
    "disabled", "blackbox", "run_tests", "labels", "selective_unpack",
    "view_restrictions",
}
SANITIZERS = {"address", "undefined", "memory", "thread", "hwaddress"}
ENGINES = {"libfuzzer", "afl", "honggfuzz", "centipede", "none"}


def check_project(path, doc):
    if not isinstance(doc, dict):
        finding(path, "not a mapping")
        return
    for k in doc:
        if k not in PROJECT_KEYS:
            finding(path, "unknown key %r" % (k,))
    if doc.get("language") != "c":
        finding(path, "language is %r, not 'c'" % (doc.get("language"),))
    for key, known in (("sanitizers", SANITIZERS), ("fuzzing_engines", ENGINES)):
        items = doc.get(key)
        if not isinstance(items, list) or not items:
            finding(path, "%s is not a non-empty list" % key)
            continue
        for item in items:
            name = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else item
            if name not in known:
                finding(path, "%s: unknown %r" % (key, name))
        if len(set(map(str, items))) != len(items):
            finding(path, "%s names one twice" % key)


# ----------------------------------------------------------------- scripts

scripts = []
script_dir = None


def keep_script(path, where, text, github):
    """Writes one embedded shell script for shellcheck."""
    if github:
        # ${{ expression }} is GitHub's, replaced before the shell runs
        text = re.sub(r"\$\{\{.*?\}\}", "GITHUB_EXPRESSION", text, flags=re.S)
    name = os.path.join(script_dir, "embedded-%d.sh" % len(scripts))
    with open(name, "w", encoding="utf-8") as f:
        f.write("#!/bin/bash\n# %s: %s\n%s\n" % (path, where, text))
    scripts.append((name, "%s: %s" % (path, where)))


# ------------------------------------------------------------------ GitHub

PERMISSION_VALUES = {"read", "write", "none"}
USES = re.compile(r"^(\./.+|docker://.+|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[^@]+)?@[^@\s]+)$")


def check_permissions(path, where, perms):
    if perms in ("read-all", "write-all", {}):
        return
    if not isinstance(perms, dict):
        finding(path, "%s: permissions is %r" % (where, perms))
        return
    for scope, value in perms.items():
        if value not in PERMISSION_VALUES:
            finding(path, "%s: permission %s is %r" % (where, scope, value))


def check_github(path, doc):
    if not isinstance(doc, dict):
        finding(path, "not a mapping")
        return
    # YAML 1.1 reads the key `on` as true
    if "on" not in doc and True not in doc:
        finding(path, "no 'on' (the events that run the workflow)")
    if "permissions" in doc:
        check_permissions(path, "workflow", doc["permissions"])
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        finding(path, "no 'jobs' mapping")
        return
    for name, job in jobs.items():
        where = "job %s" % name
        if not isinstance(job, dict):
            finding(path, "%s is not a mapping" % where)
            continue
        if "runs-on" not in job:
            finding(path, "%s has no runs-on" % where)
        if "permissions" in job:
            check_permissions(path, where, job["permissions"])
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            finding(path, "%s has no steps" % where)
            continue
        for i, step in enumerate(steps, 1):
            swhere = "%s, step %d" % (where, i)
            if not isinstance(step, dict):
                finding(path, "%s is not a mapping" % swhere)
                continue
            if "name" in step:
                swhere += " (%s)" % step["name"]
            has_uses, has_run = "uses" in step, "run" in step
            if has_uses == has_run:
                finding(path, "%s needs exactly one of uses and run" % swhere)
            if has_uses and not (isinstance(step["uses"], str) and USES.match(step["uses"])):
                finding(path, "%s: uses %r is not owner/repo@ref" % (swhere, step["uses"]))
            if has_uses and "with" in step and not isinstance(step["with"], dict):
                finding(path, "%s: with is not a mapping" % swhere)
            if has_run:
                shell = step.get("shell", job.get("defaults", {}).get("run", {}).get("shell", "bash"))
                if not isinstance(step["run"], str):
                    finding(path, "%s: run is not a string" % swhere)
                elif shell in ("bash", "sh"):
                    keep_script(path, swhere, step["run"], True)


# ------------------------------------------------------------------ GitLab

GITLAB_GLOBAL = {
    "stages", "variables", "include", "default", "workflow", "image",
    "services", "before_script", "after_script", "cache", "spec",
}
GITLAB_DEFAULT_STAGES = {".pre", "build", "test", "deploy", ".post"}


def script_lines(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out = []
        for v in value:
            out.extend(script_lines(v))
        return out
    return None


def check_gitlab(path, doc):
    if not isinstance(doc, dict):
        finding(path, "not a mapping")
        return
    stages = doc.get("stages")
    known_stages = set(stages) if isinstance(stages, list) else GITLAB_DEFAULT_STAGES
    jobs = [k for k in doc if k not in GITLAB_GLOBAL and not str(k).startswith(".")]
    if not jobs:
        finding(path, "no job")
    for name in jobs:
        job = doc[name]
        where = "job %s" % name
        if not isinstance(job, dict):
            finding(path, "%s is not a mapping" % where)
            continue
        if "script" not in job and "trigger" not in job and "extends" not in job:
            finding(path, "%s has no script" % where)
        if "stage" in job and job["stage"] not in known_stages:
            finding(path, "%s: stage %r is not among %s" % (where, job["stage"], sorted(known_stages)))
        if "rules" in job and not (isinstance(job["rules"], list)
                                   and all(isinstance(r, dict) for r in job["rules"])):
            finding(path, "%s: rules is not a list of mappings" % where)
        for part in ("before_script", "script", "after_script"):
            if part not in job:
                continue
            lines = script_lines(job[part])
            if lines is None:
                finding(path, "%s: %s is not a string or a list of them" % (where, part))
                continue
            # each item runs in the same shell, one after another
            keep_script(path, "%s, %s" % (where, part), "\n".join(lines), False)


def main():
    global script_dir
    script_dir = sys.argv[1]
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.load(f, Loader=UniqueKeyLoader)
        except (OSError, yaml.YAMLError) as e:
            finding(path, "does not parse: %s" % str(e).replace("\n", " "))
            continue
        base = os.path.basename(path)
        if path.endswith(".clusterfuzzlite/project.yaml") or path == "project.yaml":
            check_project(path, doc)
        elif re.search(r"-github\.ya?ml$", base) or "/.github/workflows/" in "/" + path:
            check_github(path, doc)
        elif re.search(r"-gitlab\.ya?ml$", base) or base == ".gitlab-ci.yml":
            check_gitlab(path, doc)
    with open(os.path.join(script_dir, "index"), "w", encoding="utf-8") as f:
        for name, where in scripts:
            f.write("%s\t%s\n" % (name, where))
    for line in findings:
        print(line)
    print("lint-yaml: %d YAML file(s), %d embedded script(s), %d finding(s)"
          % (len(sys.argv) - 2, len(scripts), len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
