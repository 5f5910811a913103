// A harness made up from reflection alone, for running a kernel that comes
// without one: every part of it is a guess, and says so in Harness::guesses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reflect/reflection.h"
#include "runner/executor.h"

namespace klint::runner {

// The elements a storage buffer's runtime array needs in one setup: one past
// the largest index its accesses reach (runner/extents.h).
struct Extent {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint64_t elements = 0;
};

// A storage buffer whose words the kernel takes whole as indices into an
// array (runner/extents.h): each word an integer below `values`, not a
// float's bits, which would index a billion elements past the end.
struct IndexBuffer {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint64_t values = 0;
  std::string why;  // "they index 'x' at line 12"
};

struct HarnessOptions {
  uint64_t seed = 1;
  std::array<uint32_t, 3> grid{1, 1, 1};
  // A buffer ending in a runtime array gets at least this many bytes of it,
  // and 4 elements per invocation of the grid where that is more, up to
  // max_runtime_array_bytes.
  uint64_t runtime_array_bytes = 64 * 1024;
  uint64_t max_runtime_array_bytes = 64 * 1024 * 1024;
  // And at least this many elements: where push constants give sizes, what
  // indices at those sizes reach (runtime_elements_for).
  uint64_t runtime_elements = 0;
  // Instead, for these bindings: the elements their indices reach, up to
  // max_runtime_array_bytes.
  std::vector<Extent> extents;
  // And these buffers hold indices.
  std::vector<IndexBuffer> index_buffers;
  // Most bytes a manifest may ask of one buffer: a descriptor's range
  // (maxStorageBufferRange is a uint32_t); less where memory is scarce.
  uint64_t max_buffer_bytes = 0xFFFFFFFF;
  // False: no buffers, images or uniform values, only what tells one setup
  // from another (the grid, push constants, specialization and shape), for
  // a caller that will not run it; a large kernel's buffers are tens of
  // megabytes of seeded values.
  bool contents = true;
};

// A buffer the kernel never reads or writes gets at most this many bytes,
// whatever its block declares: it is only there to be bound.
constexpr uint64_t kUnusedBufferBytes = 64 * 1024;

// The bytes to give a buffer binding of `size` bytes: all of them, or, for
// one the kernel never uses, kUnusedBufferBytes at most, said in `guesses`.
uint64_t buffer_bytes_to_give(const reflect::Binding& binding, uint64_t size, std::vector<std::string>& guesses);

// splitmix64 (Steele, Lea and Flood 2014; the seeder of xoshiro): one 64-bit
// state, a fixed increment and a mixing function. Small enough to restate in
// docs/runner.md, so that any tool can reproduce a run's input from its seed.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  // A float in [-1, 1] from the top 24 bits, which a float holds exactly.
  float next_float();

 private:
  uint64_t state_;
};

// The word a buffer that the kernel only writes starts with, so that a word
// never written can be told from one written with whatever was there. Chosen
// to be a value no kernel writes by accident, whatever type it stores: as a
// float it is a NaN whose payload (0x757ff5) is none of the NaNs that GPUs
// and CPUs produce (0x7fc00000, 0xffc00000, 0x7fffffff); each 16-bit half is a
// half-precision NaN (0x7ff5) and, for bfloat16, a NaN too; two of them make a
// double-precision NaN; as an integer (2146795509) it is no plausible index
// or count. A kernel can still store it on purpose: klint then counts that
// word as never written.
constexpr uint32_t kSentinelWord = 0x7FF57FF5;

// The 32-bit words of `data` that hold kSentinelWord.
size_t count_sentinel_words(const std::vector<uint8_t>& data);

// Whether the kernel only writes a binding, as qualified (writeonly) or as
// its code does: then its initial contents are never read, and it starts
// filled with kSentinelWord.
bool only_written(const reflect::Binding& binding);

// Whether a buffer's words hold 16-bit floats: its block's last member is
// float16_t, an f16vec or an f16mat, or an array of them.
bool holds_halves(const reflect::Binding& binding);

// Half-precision bits of a float in [-1, 1], rounded toward zero; values
// below half's normal range become zero.
uint16_t to_half(float value);
float from_half(uint16_t half);

// Whether the kernel may write a binding: it stores to it or updates it atomically.
bool may_write(const reflect::Binding& binding);

// A buffer for `binding`, `size` bytes (rounded up to whole words, at least
// one), filled with kSentinelWord when only written, else with next_float()
// of `random` for every word (a buffer of 16-bit floats: two halves of one
// draw for every word, each in [-1, 1]; with `index_values`, one draw modulo
// it for every word). Fails with a reason for bindings the executor cannot
// give (images, samplers, arrays of descriptors).
std::optional<BufferSpec> make_buffer(const reflect::Binding& binding, uint64_t size, SplitMix64& random,
                                      std::string* error, uint64_t index_values = 0);

// Guesses for bindings that nobody sized: elements of a block's trailing
// runtime array as HarnessOptions says, for a dispatch of `grid`.
bool ends_in_runtime_array(const reflect::BlockLayout& block);
uint64_t guessed_runtime_elements(const reflect::EntryPoint& entry, const std::array<uint32_t, 3>& grid,
                                  const HarnessOptions& options, uint32_t stride);

// The elements the runtime array of `binding` gets: its extent where
// `options` has one, else guessed_runtime_elements; and the guess line that
// says so.
uint64_t runtime_array_elements(const reflect::EntryPoint& entry, const reflect::Binding& binding,
                                const std::array<uint32_t, 3>& grid, const HarnessOptions& options,
                                std::vector<std::string>& guesses);

// The elements a runtime array gets where push constants give the kernel
// these integer sizes: the largest product of two of them (rows * cols), or
// the largest one alone, at most kMostSizedElements. Both --confirm's
// inferred setups and `klint run --push-constants` size buffers so, which is
// what lets a replay reproduce a confirmation.
constexpr uint64_t kMostSizedElements = uint64_t{1} << 20;
uint64_t runtime_elements_for(const std::vector<int64_t>& sizes);

// Makes harness.buffers from `bytes`, the size each binding of `entry` asks
// for (by index; only plain storage and uniform buffers are read), filling
// them from `random` in binding order. Blocks declared on one set and binding
// (one buffer read as float[] and as vec4[]) alias one buffer, as Vulkan
// allows: it gets the largest size any of them asks for, starts as the
// sentinel only when every one of them is only written, and counts as written
// when one is. A binding none of whose blocks the kernel uses is cut to
// kUnusedBufferBytes, unless `given[index]` (a manifest sized it).
bool add_buffers(const reflect::EntryPoint& entry, const std::vector<uint64_t>& bytes, const std::vector<bool>& given,
                 SplitMix64& random, Harness& harness, std::string* error,
                 const std::vector<IndexBuffer>& index_buffers = {});

// "binding 0.1 (name)", as harness messages name a binding.
std::string binding_label(const reflect::Binding& binding);

// The guess line for the buffers whose contents were drawn from `seed`, and
// for those that start as kSentinelWord; none when there are no such buffers.
void describe_contents(const std::vector<BufferSpec>& buffers, uint64_t seed, std::vector<std::string>& guesses);

// One buffer per storage or uniform buffer binding, sized from its block
// (runtime arrays as HarnessOptions says), push constants of the block's size,
// every 32-bit word of both filled with next_float() in binding order then
// push constants, except buffers the kernel only writes, which start as
// kSentinelWord and draw nothing from the sequence; then every other binding
// and buffer_reference a resource (runner/resources.h). Specialization
// constants keep their defaults. Fails with a reason for bindings no resource
// can stand for (runner/resources.h).
std::optional<Harness> default_harness(const reflect::EntryPoint& entry, const HarnessOptions& options,
                                       std::string* error);

}  // namespace klint::runner
