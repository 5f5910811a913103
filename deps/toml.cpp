// toml++'s implementation, built into klint once (deps/CMakeLists.txt says
// why): the files that include toml++ see only its declarations
// (TOML_HEADER_ONLY=0), and this one defines them.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
