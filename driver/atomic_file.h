// Writing a file so that readers see the old content or the new, never half:
// the text goes to a temporary file beside it, which is then renamed over it.
#pragma once

#include <string>
#include <string_view>

namespace klint {

// False with *error ("cannot write PATH: reason") when it fails; the
// temporary file is removed then.
bool write_file_atomically(const std::string& path, std::string_view content, std::string* error);

}  // namespace klint
