// The IR's encoding: a module that decodes re-encodes to the same words, and
// decoding those again gives a module that encodes the same once more.
#include <cstring>
#include <vector>

#include "analyzer/ir/module.h"
#include "fuzz/fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace klint;
  if (size % 4 != 0) return 0;
  std::vector<uint32_t> words(size / 4);
  if (size) std::memcpy(words.data(), data, size);
  ir::DecodeError error;
  std::optional<ir::Module> first = ir::decode(words, &error);
  if (!first) return 0;
  const std::vector<uint32_t> encoded = ir::encode(*first);
  if (encoded != words) fuzz::fail("decode then encode changed the module's words");
  std::optional<ir::Module> second = ir::decode(encoded, &error);
  if (!second) fuzz::fail("the re-encoded module does not decode: " + error.message);
  if (ir::encode(*second) != encoded) fuzz::fail("a second round trip changed the module's words");
  return 0;
}
