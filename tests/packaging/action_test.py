#!/usr/bin/env python3
"""Runs the steps of klint's GitHub Action (action.yml) as a runner would, on a
scratch repository with a good and a bad shader, offline:

- `run:` steps run in bash as GitHub runs them (-eo pipefail), with the
  expressions they use (`inputs.*`, `github.action_path`,
  `steps.*.outputs.*`) substituted, and GITHUB_OUTPUT, GITHUB_PATH and
  RUNNER_TEMP as the runner sets them. The install step's pip builds the wheel
  from this checkout; it packs the klint of KLINT_BUILD_DIR
  (KLINT_WHEEL_BUILD_DIR) so that the test takes seconds, and pip may use no
  package index. The step that installs build dependencies is turned off
  (install-build-dependencies: false): a test installs no Debian packages.
- The upload step, github/codeql-action/upload-sarif, is not run (no
  network, no GitHub): its inputs are checked instead, and the SARIF log it
  would upload is validated by tools/sarif-validate, as the SarifMultitool
  test validates klint's logs (exit 77, skipped, when the multitool cannot be
  had and KLINT_SKIP_SARIF_MULTITOOL=1).

usage: action_test.py KLINT_SOURCE_DIR KLINT_BUILD_DIR
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

BAD_SHADER = """#version 450
layout(local_size_x = 64) in;
void main() {
    if (gl_LocalInvocationID.x < 16) {
        barrier();
    }
}
"""
GOOD_SHADER = """#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    data[gl_GlobalInvocationID.x] *= 2.0;
}
"""


def fail(message, output=""):
    print(f"FAIL: {message}", file=sys.stderr)
    if output:
        print(f"--- output:\n{output}\n---", file=sys.stderr)
    sys.exit(1)


class Runner:
    def __init__(self, source, workspace, runner_temp, inputs):
        self.source = source
        self.workspace = workspace
        self.inputs = inputs
        self.outputs = {}  # step id -> {name: value}
        self.path = []
        self.env = dict(os.environ, RUNNER_TEMP=str(runner_temp), GITHUB_WORKSPACE=str(workspace),
                        GITHUB_ACTION_PATH=str(source), CI="true", GITHUB_ACTIONS="true")
        self.files = runner_temp / "files"
        self.files.mkdir()

    def expression(self, text):
        """The value of one ${{ }} expression, of the few the action uses."""
        text = text.strip()
        if match := re.fullmatch(r"inputs\.([\w-]+)", text):
            return self.inputs[match.group(1)]
        if text == "github.action_path":
            return str(self.source)
        if match := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", text):
            return self.outputs.get(match.group(1), {}).get(match.group(2), "")
        if match := re.fullmatch(r"inputs\.([\w-]+) == '([^']*)'", text):
            return self.inputs[match.group(1)] == match.group(2)
        fail(f"action.yml uses an expression this test does not know: {text}")

    def substitute(self, text):
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(self.expression(m.group(1))), str(text))

    def run_step(self, step):
        output_file = self.files / "output"
        path_file = self.files / "path"
        output_file.write_text("")
        path_file.write_text("")
        env = dict(self.env, GITHUB_OUTPUT=str(output_file), GITHUB_PATH=str(path_file))
        env.update({key: self.substitute(value) for key, value in step.get("env", {}).items()})
        env["PATH"] = os.pathsep.join(self.path + [env["PATH"]])
        script = self.files / "step.sh"
        script.write_text(self.substitute(step["run"]))
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                                cwd=self.workspace, env=env, capture_output=True, text=True)
        if "id" in step:
            self.outputs[step["id"]] = dict(line.split("=", 1) for line in output_file.read_text().splitlines()
                                            if "=" in line)
        self.path = [line for line in path_file.read_text().splitlines() if line][::-1] + self.path
        return result


def main():
    source = Path(sys.argv[1]).resolve()
    build = Path(sys.argv[2]).resolve()
    action = yaml.safe_load((source / "action.yml").read_text())
    if action["runs"]["using"] != "composite":
        fail("action.yml is not a composite action")

    with tempfile.TemporaryDirectory(prefix="klint-action-") as scratch:
        scratch = Path(scratch)
        workspace = scratch / "workspace"
        (workspace / "shaders").mkdir(parents=True)
        (workspace / "shaders" / "divergent.comp").write_text(BAD_SHADER)
        (workspace / "shaders" / "scale.comp").write_text(GOOD_SHADER)
        subprocess.run(["git", "init", "-q", str(workspace)], check=True)  # as actions/checkout leaves it
        runner_temp = scratch / "runner"
        runner_temp.mkdir()
        inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        inputs.update({"paths": "shaders", "install-build-dependencies": "false"})
        runner = Runner(source, workspace, runner_temp, inputs)
        runner.env.update(KLINT_WHEEL_BUILD_DIR=str(build), PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull,
                          PIP_DISABLE_PIP_VERSION_CHECK="1", KLINT_CACHE_DIR=str(scratch / "cache"),
                          NO_COLOR="1")

        uploads = []
        for step in action["runs"]["steps"]:
            name = step.get("name", step.get("uses", "a step"))
            if "if" in step and not runner.expression(step["if"]):
                continue
            if "uses" in step:
                if not step["uses"].startswith("github/codeql-action/upload-sarif@"):
                    fail(f"action.yml uses {step['uses']}, which this test cannot stand in for")
                uploads.append({key: runner.substitute(value) for key, value in step.get("with", {}).items()})
                continue
            result = runner.run_step(step)
            if result.returncode != 0:
                fail(f"the step '{name}' failed (exit {result.returncode})", result.stdout + result.stderr)
            if name == "Lint" and "klint " not in result.stdout:
                fail("the lint step did not print klint's version", result.stdout + result.stderr)

        lint = runner.outputs.get("lint", {})
        if lint.get("exit-code") != "1":
            fail(f"klint's exit code is {lint.get('exit-code')!r}, not 1 (findings)", str(lint))
        if len(uploads) != 1:
            fail(f"the action uploads {len(uploads)} SARIF logs, not 1")
        upload = uploads[0]
        if upload.get("category") != "klint":
            fail("the upload's category is not klint", str(upload))
        log = workspace / upload.get("sarif_file", "")
        if not upload.get("sarif_file") or not log.is_file():
            fail(f"the upload's sarif_file {upload.get('sarif_file')!r} is not the log the lint wrote", str(upload))

        sarif = json.loads(log.read_text())
        results = sarif["runs"][0]["results"]
        where = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results}
        if ("barrier-in-divergent-control-flow", "shaders/divergent.comp") not in where:
            fail("the SARIF log lacks the bad shader's finding, at its path in the repository", json.dumps(results))
        if any(uri == "shaders/scale.comp" for _, uri in where):
            fail("the SARIF log has a finding in the good shader", json.dumps(results))

        validation = subprocess.run([str(source / "tools" / "sarif-validate"), "--build", str(build), str(log)],
                                    capture_output=True, text=True)
        print(validation.stdout + validation.stderr, end="")
        if validation.returncode == 77:
            return 77
        if validation.returncode != 0:
            fail("tools/sarif-validate rejects the log the action uploads")
    print("ok: the action installs klint from its checkout, lints, and hands upload-sarif a valid log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
