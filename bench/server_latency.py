#!/usr/bin/env python3
"""Time from a didChange to its diagnostics in `klint server`, beside
`klint --no-cache` linting the same text from standard input (its peer: the
same lint, without the server).

The shader is generated as bench/large_shader.sh generates it (tree
reductions: loops, divergent branches, barriers), N of them; N = 60 makes
about 500 lines. Each change appends a comment, so every version is linted.

usage: bench/server_latency.py [KLINT] [REPEAT] [N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def generate(n):
    out = ["#version 450", "layout(local_size_x = 256) in;",
           "layout(binding = 0) buffer Data { float data[]; };", "shared float partial[256];",
           "void main() {", "    uint tid = gl_LocalInvocationID.x;", "    float acc = 0.0;"]
    for k in range(n):
        out += [f"    partial[tid] = data[{k} * 256 + tid] * acc;", "    barrier();",
                "    for (uint s = 128; s > 0; s >>= 1) {",
                "        if (tid < s) partial[tid] += partial[tid + s];", "        barrier();", "    }",
                "    acc += partial[0];", "    barrier();"]
    out += ["    data[gl_GlobalInvocationID.x] = acc;", "}"]
    return "\n".join(out) + "\n"


class Server:
    def __init__(self, klint, cwd):
        self.process = subprocess.Popen([klint, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=cwd)

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def diagnostics(self, version):
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and \
                    message["params"].get("version") == version:
                return message["params"]["diagnostics"]


def main():
    klint = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/klint")
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    text = generate(n)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "large.comp")
        uri = "file://" + path
        server = Server(klint, scratch)
        server.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
        server.receive()
        server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "glsl", "version": 0, "text": text}}})
        found = len(server.diagnostics(0))
        latencies = []
        for version in range(1, repeat + 1):
            text += f"// edit {version}\n"
            start = time.perf_counter()
            server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
            server.diagnostics(version)
            latencies.append(time.perf_counter() - start)
        server.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        server.receive()
        server.send({"jsonrpc": "2.0", "method": "exit"})
        server.process.wait()
        cli = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([klint, "--no-cache", "--stdin-filename", path, "-"], input=text.encode(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=scratch)
            cli.append(time.perf_counter() - start)
    print(f"{text.count(chr(10))} lines, {found} findings, {repeat} changes")
    print(f"didChange to diagnostics: best {min(latencies) * 1000:.0f} ms, "
          f"median {statistics.median(latencies) * 1000:.0f} ms")
    print(f"klint --no-cache --stdin-filename: best {min(cli) * 1000:.0f} ms, "
          f"median {statistics.median(cli) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
