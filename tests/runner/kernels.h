// Compiles the GLSL kernels of the runner tests and reads back 32-bit words.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "validate/device.h"

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
// (lavapipe, in CI), else the first device.
inline std::string default_device_name() {
  std::string error;
  std::vector<DeviceInfo> devices = list_devices(&error);
  for (const DeviceInfo& device : devices) {
    if (device.type == "cpu") return device.name;
  }
  return devices.empty() ? std::string() : devices.front().name;
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
