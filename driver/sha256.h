// SHA-256 (FIPS 180-4), for the result cache's keys. No library klint links
// provides one, and a cheap 64- or 128-bit hash would let a crafted shader
// collide with a clean one in a cache that CI restores across branches.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace klint {

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  // The digest as 64 lower-case hex digits. The object is spent afterwards.
  std::string hex();

 private:
  void compress(const unsigned char* block);

  std::array<uint32_t, 8> state_;
  std::array<unsigned char, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes hashed so far
};

inline std::string sha256_hex(std::string_view bytes) { return Sha256().update(bytes).hex(); }

}  // namespace klint
