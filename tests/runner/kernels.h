// Compiles the GLSL kernels of the runner tests and reads back 32-bit words.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontend.h"
#include "tests/support/run.h"

namespace klint::runner::testing {

// A kernel that runs until it is killed. lavapipe ends the loops of an
// invocation after 65535 iterations in all, so a loop that never ends does on
// lavapipe: what takes forever there is a grid of many workgroups that each
// loop that long.
inline constexpr const char* kEndlessKernel = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint values[4]; } data;
void main() {
  uint x = data.values[1];
  for (uint i = 0u; i < 65000u; i++) x = x * 1664525u + i;
  data.values[1] = x;
}
)";

inline std::vector<uint32_t> spirv_from_glsl(const std::string& source) {
  SourceCache sources;
  CompiledShader compiled = compile("test.comp", source, Language::Glsl, CompileOptions{}, sources);
  for (const Diagnostic& d : compiled.diagnostics) ADD_FAILURE() << d.location.line << ": " << d.message;
  EXPECT_TRUE(compiled.ok);
  return compiled.spirv;
}

// The device the runner picks when none is named: the first CPU device
// (lavapipe, in CI), else the first. Asked of `klint devices` in a process of
// its own: a Vulkan driver loaded into the test process trips LeakSanitizer.
inline std::string default_device_name() {
  ::klint::testing::KlintRun run = ::klint::testing::run_klint({"devices"});
  std::string first;
  size_t start = 0;
  while (start < run.out.size()) {
    size_t end = run.out.find('\n', start);
    std::string line = run.out.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? run.out.size() : end + 1;
    // "device:0  NAME (TYPE, DRIVER, Vulkan X)"
    // Names and drivers hold parentheses too: the type marks where the name ends.
    size_t name = line.find("  ");
    if (name == std::string::npos) continue;
    for (const char* type : {" (cpu, ", " (discrete-gpu, ", " (integrated-gpu, ", " (virtual-gpu, ", " (other, "}) {
      size_t details = line.find(type, name);
      if (details == std::string::npos) continue;
      std::string device = line.substr(name + 2, details - name - 2);
      if (std::string_view(type) == " (cpu, ") return device;
      if (first.empty()) first = device;
    }
  }
  return first;
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
