// The glslang half of the front-end, apart so that frontend.cpp stays free of
// glslang's headers.
#pragma once

#include <string>

#include "analyzer/frontend.h"
#include "analyzer/source.h"

namespace klint {

// Compiles GLSL or HLSL source as a Vulkan compute shader, with OpLine debug
// info. `text` has passed the front-end's pre-checks (not empty, no NUL).
CompiledShader compile_with_glslang(const std::string& path, const std::string& text, Language language,
                                    const CompileOptions& options, SourceCache& sources);

}  // namespace klint
