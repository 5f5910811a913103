// glslang in a process of its own. Its GLSL and HLSL front ends can crash or
// hang on malformed input (klint's fuzzing finds such inputs within seconds in
// the HLSL front end); one file must not take klint and the other files'
// results down with it. With isolation enabled, compile_isolated() sends each
// GLSL or HLSL file to a worker process (`klint --compile-worker`, kept and
// reused, one per thread that compiles at a time) and reads the compiled
// shader back. A worker that dies or runs past the time limit becomes a
// compile-error finding for that file, and the next file gets a fresh one.
// SPIR-V binaries and assembly go through SPIRV-Tools in process, as before.
#pragma once

#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "analyzer/source.h"

namespace klint {

struct CompileIsolation {
  // The worker's command: argv[0] is the executable, run with these
  // arguments. Empty: compile in this process (the library's default, and
  // the tests' that call the driver directly).
  std::vector<std::string> command;
  double timeout_seconds = 60;
};

// Sets how compile_isolated() compiles, for the whole process. Call before
// any compile, from one thread.
void set_compile_isolation(CompileIsolation isolation);

// compile(), run in a worker when isolation is enabled and the file is GLSL
// or HLSL. The files the shader included are read into `sources` again here,
// as compile() would have registered them.
CompiledShader compile_isolated(const std::string& path, const std::string& text, Language language,
                                const CompileOptions& options, SourceCache& sources);

// The worker's side: reads requests on file descriptor `fd` and answers each
// until the other end closes it. Returns the process's exit code.
int run_compile_worker(int fd);

}  // namespace klint
