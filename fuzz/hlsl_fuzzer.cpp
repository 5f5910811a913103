// HLSL source through the whole lint pipeline: compile, validate,
// normalize, every rule, and the text, JSON and SARIF outputs.
#include "fuzz/fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  klint::fuzz::lint_everything("input.hlsl", klint::Language::Hlsl, data, size);
  return 0;
}
