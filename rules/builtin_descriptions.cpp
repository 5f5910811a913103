// The rules no rule object stands for, and their documentation: compile-error,
// invalid-spirv and internal-error, whose findings the front end and the
// validator make (so their RuleInfo is the analyzer's), and unused-suppression,
// whose findings the driver makes from the comments it reads.
#include "rules/rule.h"

namespace klint {

const RuleInfo kUnusedSuppression{
    .id = "unused-suppression",
    .category = Category::Input,
    .default_severity = Severity::Warning,
};

constexpr RuleDescription kCompileErrorDescription{
    .summary = "shader source that glslang cannot compile",
    .doc = R"md(
## What it finds
GLSL or HLSL source that does not compile as a Vulkan compute shader: syntax
and type errors, undeclared identifiers, missing `#include` files, a missing
entry point. klint compiles with glslang the way `glslc` does (same `-D`, `-I`
and `--target-env` meaning, `#include` always enabled) and reports the
compiler's message at the compiler's file and line. Empty files and files with
binary content are reported here too, without running the compiler.

## Why it matters
Nothing else can be checked in a shader that does not compile: every other
rule works on the SPIR-V the compiler produces. The shader would also fail in
the real build.

## Bad
```glsl
#version 450
layout(local_size_x = 64) in;
void main() {
    counter += 1;  // 'counter' : undeclared identifier
}
```

## Fix
```glsl
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint counter; };
void main() {
    atomicAdd(counter, 1u);
}
```

## Exceptions
None: a file klint cannot compile is never silently skipped. If the file is
not meant to be compiled on its own (a header), leave it out of the inputs, or
name it `.glsl` without a `main` so that directory walks pass it over. Pass
the same `-D` and `-I` options as the real build.
)md",
};

constexpr RuleDescription kInvalidSpirvDescription{
    .summary = "module that is not valid SPIR-V for the target environment",
    .doc = R"md(
## What it finds
A `.spv` file that is not a SPIR-V binary (bad magic number, truncated), a
`.spvasm` file the SPIRV-Tools assembler rejects, and any module, compiled or
given, that the SPIRV-Tools validator rejects for its target environment.
The validator's own message is kept, including its `VUID-...` reference where
it names one; the instruction it blames is a note, and in SPIR-V assembly the
ids read as the text names them (`%bad`), not by the numbers the assembler gave
them.

The target environment is `--target-env` (or `target-env` in klint.toml) when
given. Otherwise GLSL and HLSL are compiled and validated for `vulkan1.3`, and
a `.spv` or `.spvasm` for the oldest Vulkan version that takes its SPIR-V
version: 1.0 for `vulkan1.0`, 1.1 to 1.3 for `vulkan1.1`, 1.4 and 1.5 for
`vulkan1.2`, 1.6 for `vulkan1.3`. So glslc's default output, SPIR-V 1.0 with
`BufferBlock` storage buffers, is judged by Vulkan 1.0's rules. SPIR-V
assembly takes its version from the `; Version: 1.0` comment that spirv-dis
and `glslc -S` write at its top (else from the environment). A note on each
finding names the environment and why it was that one.

Three things are not this finding, because the shader is not what is wrong;
each is one note on the file, and klint analyzes the module:
- A capability or an instruction the SPIRV-Tools klint links does not know
  yet (a newer extension, or one a shader names through
  `GL_EXT_spirv_intrinsics`). klint validates the module without it, takes
  the instruction's result as an unknown value, and says that validation was
  partial. `--confirm` does not run such a module: it is not the shader.
- A block layout that needs the `scalarBlockLayout` feature: like a
  capability, that is a feature the host enables, and klint validates with it.
- A conversion between types of one width (`OpFConvert` from half to half) in
  a module klint compiled from GLSL or HLSL: no source asks for one, glslang
  emits it, and klint analyzes the copy it means. In SPIR-V you give klint,
  it is this finding.

## Why it matters
Drivers are allowed to assume valid SPIR-V: an invalid module may be rejected
by `vkCreateShaderModule`, crash the driver's compiler, or silently run
something else than intended. klint's analyses make the same assumption, so
they do not run on an invalid module.

## Bad
```spvasm
; Vulkan requires a workgroup size on every GLCompute entry point
; [VUID-StandaloneSpirv-LocalSize-06426].
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
```

## Fix
```spvasm
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 64 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
```

## Exceptions
None. A module produced by a compiler that klint does not run (DXC, an older
glslang) should be validated with `spirv-val` for the same environment to
confirm that the compiler is at fault.
)md",
};

constexpr RuleDescription kInternalErrorDescription{
    .summary = "klint itself failed while checking this file",
    .doc = R"md(
## What it finds
A failure inside klint: a rule that broke one of its own invariants, or a
front-end step that failed in a way that says nothing about the shader. The
message names the part of klint that failed. The other rules and files are
still checked.

## Why it matters
A rule that failed has not checked the shader, so the absence of its findings
means nothing for this file. Please report it with the shader attached.

## Bad
```glsl
// Any shader can trigger it; it is a bug in klint, not in the shader.
#version 450
layout(local_size_x = 64) in;
void main() {}
```

## Fix
```glsl
// Nothing to change in the shader: report the message and the file to the
// klint maintainers. Disabling the failing rule silences it meanwhile.
#version 450
layout(local_size_x = 64) in;
void main() {}
```

## Exceptions
None: an internal error is always a klint bug.
)md",
};

constexpr RuleDescription kUnusedSuppressionDescription{
    .summary = "klint-ignore comment that silences nothing",
    .doc = R"md(
## What it finds
A `// klint-ignore: rule-id`, `// klint-ignore-next-line: rule-id` or
`// klint-ignore-file: rule-id` comment whose rule reports nothing where the
comment points, or that names a rule klint does not have. A block comment
that opens with the same words (`/* klint-ignore: rule-id */`) is one too: it
points at the line it opens on, and code may stand before and after it.

## Why it matters
A stale suppression hides the next real finding of that rule on that line,
and misleads the reader into thinking the code needs an exception.

## Bad
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    // klint-ignore-next-line: shared-memory-race -- fixed long ago
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
```

## Fix
```glsl
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float x[]; };
shared float tile[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    tile[tid] = x[gl_GlobalInvocationID.x];
    barrier();
    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];
}
```

## Exceptions
Suppressions for rules left out with `--select` or `--ignore` are not judged,
and neither are suppressions in included files, which other shaders may need.
)md",
};

namespace {

struct BuiltinRule {
  const RuleInfo* rule;
  const RuleDescription* description;
};

constexpr BuiltinRule kBuiltinRules[] = {
    {&kCompileError, &kCompileErrorDescription},
    {&kInvalidSpirv, &kInvalidSpirvDescription},
    {&kInternalError, &kInternalErrorDescription},
    {&kUnusedSuppression, &kUnusedSuppressionDescription},
};

}  // namespace

namespace detail {

std::vector<const RuleInfo*> builtin_rules() {
  std::vector<const RuleInfo*> out;
  for (const BuiltinRule& builtin : kBuiltinRules) out.push_back(builtin.rule);
  return out;
}

const RuleDescription* builtin_description(const RuleInfo& rule) {
  for (const BuiltinRule& builtin : kBuiltinRules) {
    if (builtin.rule == &rule) return builtin.description;
  }
  return nullptr;
}

}  // namespace detail
}  // namespace klint
