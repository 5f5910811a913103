// klint's findings in the LSP's words: file URIs, positions in the encoding
// the client and server agreed on, and Diagnostic objects.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analyzer/frontend.h"
#include "analyzer/source.h"
#include "driver/finding.h"

namespace klint::server {

// How a Position's `character` counts: UTF-16 code units (the LSP's default)
// or bytes, when the client offers "utf-8" (positionEncoding, LSP 3.17).
enum class Encoding { Utf16, Utf8 };

// The path of a file: URI, or nullopt for other schemes (untitled:, ...).
std::optional<std::string> path_of_uri(std::string_view uri);
// The file: URI of a path (made absolute against the working directory).
std::string uri_of_path(const std::string& path);

// Whether two paths name one file, compared lexically once absolute.
bool same_file(const std::string& a, const std::string& b);

// The Position `character` of byte `byte` of `line`, and back.
uint32_t character_of(std::string_view line, size_t byte, Encoding encoding);
size_t byte_of(std::string_view line, uint32_t character, Encoding encoding);

// The byte offset in `text` of an LSP Position (clamped to the text).
size_t offset_of(std::string_view text, const nlohmann::json& position, Encoding encoding);

nlohmann::json lsp_range(uint32_t start_line, uint32_t start_character, uint32_t end_line, uint32_t end_character);

// The range that the outputs mark for a location (driver/output/span.h): its
// columns, else its token, else the whole line; the start of the file for a
// location without a line.
nlohmann::json lsp_range(const Location& location, SourceCache& sources, Encoding encoding);

// The range of exactly what the location marks (its columns, else its token),
// or nullopt: what a mechanical fix may replace.
std::optional<nlohmann::json> exact_range(const Location& location, SourceCache& sources, Encoding encoding);

// Whether an LSP position lies in an LSP range (its end included, so that a
// cursor just after a word still hovers it), and whether two ranges overlap.
bool contains(const nlohmann::json& range, const nlohmann::json& position);
bool overlaps(const nlohmann::json& a, const nlohmann::json& b);

// The LSP Diagnostic of a finding of `document`: severity, range, source
// "klint", the rule id as code with a link to its documentation, the notes as
// relatedInformation. A finding in another file is shown on the document's
// #include line that leads to that file through `includes` (at any depth),
// else at the start of the document; its message names the place, which
// relatedInformation links.
nlohmann::json lsp_diagnostic(const Finding& finding, const std::string& document, std::span<const Inclusion> includes,
                              SourceCache& sources, Encoding encoding);

}  // namespace klint::server
