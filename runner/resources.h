// Resources for everything a kernel declares besides single storage and
// uniform buffers: images, samplers, texel buffers, arrays of descriptors and
// buffers reached through device addresses (buffer_reference). Each is made
// from reflection alone, every part of it a guess said in Harness::guesses,
// and a binding the kernel never uses gets one too: a pipeline that leaves a
// declared binding out is invalid.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reflect/reflection.h"
#include "runner/executor.h"
#include "runner/harness.h"

namespace klint::runner {

// One storage or uniform buffer, not an array of them: a BufferSpec gives it.
bool is_plain_buffer(const reflect::Binding& binding);

// "storage-image", "addressed-buffer", ...
std::string_view to_string(ResourceKind kind);

// Appends to harness.resources one resource per binding of `entry` that is not
// a plain buffer, in binding order, then one addressed buffer per
// buffer_reference in the push constants and at the top level of each plain
// buffer's block (harness.buffers holds those, in binding order). Contents
// are drawn from `random` after the buffers': floats in [-1, 1) for float
// formats, integers in [0, 16) for integer ones, random bits for normalized
// and packed ones; images the kernel only writes start as the sentinel where
// their texels are made of 16- or 32-bit parts. Images cover the grid's
// invocations, one texel each. Fails with a reason for a binding no resource
// can stand for (acceleration structures, input attachments, multisampled images).
// Fails with a reason when two variables share one set and binding (HLSL
// registers of different classes, t0 and u0, compile to binding 0 unless
// shifted): no pipeline layout can give both.
bool distinct_bindings(const reflect::EntryPoint& entry, std::string* error);

// HLSL registers of different classes on one binding (t0, u0 and b0 all
// compile to binding 0 unless the compiler shifts them, as a build does with
// DXC's -fvk-t-shift or glslang's --shift-texture-binding): in a module whose
// OpSource is HLSL, every class but the first at a binding moves to a binding
// of its own past its set's highest, in `spirv`'s Binding decorations, and
// `reflection` is read again from it. One line per move, for the guesses.
// GLSL names its bindings itself: two kinds on one is its own mistake, and
// stays one (distinct_bindings). Fails, changing nothing, where a variable to
// move cannot be told from the others.
std::optional<std::vector<std::string>> separate_registers(std::vector<uint32_t>& spirv,
                                                           reflect::ModuleReflection& reflection, std::string* error);

bool add_resources(const reflect::EntryPoint& entry, const HarnessOptions& options, SplitMix64& random,
                   Harness& harness, std::string* error);

// "binding 0.1 out (storage-image 8x8 rgba32f): 3 of 64 texels never
// written; first: ...", a line per element of what a writable resource holds
// after a run, without the newline.
std::vector<std::string> describe_result(const ResourceSpec& spec, const ResourceResult& result);

// Texels of one element still holding the sentinel (spec.sentinel), else
// texels (words, for buffers) that differ from the initial contents; and how
// many there are in all.
struct TexelCount {
  size_t counted = 0;
  size_t total = 0;
};
TexelCount count_texels(const ResourceSpec& spec, size_t element, const std::vector<uint8_t>& after);

}  // namespace klint::runner
