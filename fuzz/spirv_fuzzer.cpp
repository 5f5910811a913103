// SPIR-V binaries through klint's IR, the analyses and every rule (the lint
// pipeline, as for a .spv file), then, for a module that lints as valid,
// reflection and the runner's instrumentation, whose output must pass
// spirv-val as the original did (by the same rules of block layout).
#include <span>
#include <vector>

#include "analyzer/module.h"
#include "fuzz/fuzz.h"
#include "reflect/reflection.h"
#include "runner/instrument.h"
#include "validate/spirv_val.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace klint;
  FileReport report = fuzz::lint_everything("input.spv", Language::SpirvBinary, data, size);
  // Only a module spirv-val accepted goes further, as in klint.
  if (size % 4 != 0 || size == 0) return 0;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.rule == &kInvalidSpirv || d.rule == &kCompileError) return 0;
  }
  for (const InputMessage& m : report.messages) {
    if (m.is_error || m.reason.starts_with("not a compute shader")) return 0;
  }
  std::vector<uint32_t> words(size / 4);
  std::memcpy(words.data(), data, size);
  if (words[0] != 0x07230203) return 0;  // the other endianness: lint swapped it
  // The original passed spirv-val by the rules of the target, or only with
  // the scalar block layout relaxation (a device feature), or only after klint
  // stood in for instructions SPIRV-Tools does not know: the instrumented
  // module must pass as the original did, and a stood-in module is not run.
  // The lint validated the module for the Vulkan of its version (no --target-env).
  const spv_target_env env = to_spv_env(words.size() > 1 ? target_env_for_spirv(words[1]) : kDefaultTargetEnv);
  BlockLayout layout = BlockLayout::Default;
  if (!validate_spirv(words, env, layout).empty()) {
    layout = BlockLayout::Scalar;
    if (!validate_spirv(words, env, layout).empty()) return 0;
  }
  std::string error;
  reflect::reflect_module(words, &error);
  std::optional<runner::Instrumented> instrumented =
      runner::instrument(words, ModuleOrigin{"input.spv", {}}, runner::InstrumentOptions{}, &error);
  if (!instrumented) return 0;
  for (const ValidationMessage& message : validate_spirv(instrumented->spirv, env, layout)) {
    if (message.is_error) fuzz::fail("the instrumented module fails spirv-val: " + message.message);
  }
  return 0;
}
