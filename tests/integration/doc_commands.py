#!/usr/bin/env python3
"""Runs every klint command that the README and docs/*.md show.

A documented command that fails is a defect: each line of a ```sh (or bash,
shell, console) block that runs `klint` is run, in document order, in a copy
of tests/integration/docs_sandbox (the files the docs name) with `shaders/`
holding the bundled examples and `my-gpu.json` a target file of the user's
own. A command passes when klint exits 0 or 1 (clean, or findings) and prints
no `klint: error`. Lines that build or install klint (tools/bootstrap, cmake)
are what CI itself runs and are left out here.

usage: doc_commands.py SOURCE_DIR KLINT
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SHELL_BLOCKS = {"sh", "bash", "shell", "console"}


def commands(markdown: pathlib.Path):
    """(line number, command) for each klint line of the shell blocks."""
    fence = None
    for number, line in enumerate(markdown.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            if fence is None:
                info = stripped[3:].split()
                fence = info[0] if info else ""
            else:
                fence = None
            continue
        if fence not in SHELL_BLOCKS:
            continue
        if stripped.startswith("$ "):
            stripped = stripped[2:]
        if re.match(r"klint(\s|$)", stripped):
            yield number, stripped


def sandbox(source: pathlib.Path, where: pathlib.Path):
    shutil.copytree(source / "tests" / "integration" / "docs_sandbox", where, dirs_exist_ok=True)
    (where / "README.md").unlink()
    shutil.copytree(source / "examples", where / "shaders")
    target = json.loads((source / "targets" / "apple-m1.json").read_text(encoding="utf-8"))
    target["name"] = "my-gpu"
    target["description"] = "a device of the user's own"
    (where / "my-gpu.json").write_text(json.dumps(target, indent=2), encoding="utf-8")


# Commands that run kernels: lavapipe compiles them in forked children, which
# leave before LeakSanitizer looks. Under tools/test --sanitize's full malloc
# stacks, ASan unwinds through libgcc inside lavapipe's JIT and the child can
# hang until klint's timeout (docs/runner.md, "Under AddressSanitizer"); they
# take fast stacks, as the runner tests do (tests/CMakeLists.txt). Commands
# that read devices in klint's own process (`klint devices`, `--target
# device:N`) keep the full stacks that tools/lsan.supp needs.
RUNS_KERNELS = re.compile(r"--confirm|\bklint run\b")


def command_env(env, command):
    if "ASAN_OPTIONS" not in env or not RUNS_KERNELS.search(command):
        return env
    return dict(env, ASAN_OPTIONS=env["ASAN_OPTIONS"] + ":fast_unwind_on_malloc=1")


def main():
    source, klint = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    documents = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    failures, ran = [], 0
    with tempfile.TemporaryDirectory(prefix="klint-docs-") as scratch:
        scratch = pathlib.Path(scratch)
        work, bin_dir = scratch / "project", scratch / "bin"
        sandbox(source, work)
        bin_dir.mkdir()
        (bin_dir / "klint").symlink_to(klint)
        env = dict(os.environ, PATH=f"{bin_dir}:{os.environ.get('PATH', '')}", NO_COLOR="1",
                   KLINT_CACHE_DIR=str(scratch / "cache"), HOME=str(scratch))
        for document in documents:
            for number, command in commands(document):
                ran += 1
                where = f"{document.relative_to(source)}:{number}"
                try:
                    done = subprocess.run(["bash", "-c", command], cwd=work, env=command_env(env, command),
                                          capture_output=True,
                                          text=True, errors="replace", timeout=300)
                except subprocess.TimeoutExpired:
                    failures.append(f"{where}: {command}: timed out")
                    continue
                if os.environ.get("VERBOSE"):
                    print(f"{where}: exit {done.returncode}: {command}")
                if done.returncode not in (0, 1) or "klint: error" in done.stderr:
                    tail = "\n    ".join(done.stderr.strip().splitlines()[-5:])
                    failures.append(f"{where}: {command}: exit {done.returncode}\n    {tail}")
    for failure in failures:
        print(failure)
    print(f"doc_commands: {ran} commands, {len(failures)} failed")
    if ran < 30:
        print("doc_commands: expected the README's and docs' commands (30 or more); did the block syntax change?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
