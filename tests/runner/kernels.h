// Compiles the GLSL kernels of the runner tests and reads back 32-bit words.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analyzer/frontend.h"

namespace klint::runner::testing {

inline std::vector<uint32_t> spirv_from_glsl(const std::string& source) {
  SourceCache sources;
  CompiledShader compiled = compile("test.comp", source, Language::Glsl, CompileOptions{}, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  EXPECT_TRUE(compiled.ok);
  return compiled.spirv;
}

inline uint32_t word(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + 4 * index, 4);
  return value;
}

inline std::vector<uint8_t> words(std::initializer_list<uint32_t> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

}  // namespace klint::runner::testing
