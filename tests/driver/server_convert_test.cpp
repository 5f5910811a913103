// The language server's conversions: file URIs and positions, which the LSP
// counts in UTF-16 code units unless the client agrees to bytes.
#include <gtest/gtest.h>

#include "driver/server/convert.h"

namespace klint::server {
namespace {

TEST(ServerConvert, PositionsCountUtf16UnitsOrBytes) {
  // "é" is 2 bytes and 1 unit; "𝄞" is 4 bytes and 2 units (a surrogate pair).
  const std::string line = "/* é 𝄞 */ barrier();";
  const size_t token = line.find("barrier");
  EXPECT_EQ(character_of(line, token, Encoding::Utf16), token - 1 - 2);
  EXPECT_EQ(character_of(line, token, Encoding::Utf8), token);
  EXPECT_EQ(byte_of(line, character_of(line, token, Encoding::Utf16), Encoding::Utf16), token);
  EXPECT_EQ(byte_of(line, 1000, Encoding::Utf16), line.size());
  nlohmann::json position{{"line", 1}, {"character", 3}};
  EXPECT_EQ(offset_of("ab\r\nxé z\n", position, Encoding::Utf16), 4u + 4u);
  EXPECT_EQ(offset_of("ab\n", nlohmann::json{{"line", 7}, {"character", 0}}, Encoding::Utf16), 3u);
}

TEST(ServerConvert, FileUrisAndPaths) {
  EXPECT_EQ(path_of_uri("file:///home/a%20b/k.comp"), "/home/a b/k.comp");
  EXPECT_EQ(path_of_uri("file://localhost/k.comp"), "/k.comp");
  EXPECT_EQ(path_of_uri("FILE:///k.comp"), "/k.comp");
  EXPECT_EQ(path_of_uri("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(path_of_uri("file://otherhost/k.comp"), std::nullopt);
  EXPECT_EQ(uri_of_path("/home/a b/k#1.comp"), "file:///home/a%20b/k%231.comp");
  EXPECT_EQ(path_of_uri(uri_of_path("/tmp/é.comp")), "/tmp/é.comp");
  EXPECT_TRUE(same_file("/tmp/x/../k.comp", "/tmp/k.comp"));
}

}  // namespace
}  // namespace klint::server
