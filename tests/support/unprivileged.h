// Permission tests mean nothing as root, who reads files whatever their mode;
// CI runs as root. These helpers drop to an unprivileged user in a child.
#pragma once

#include <functional>
#include <string>

namespace klint::testing {

// The uid and gid of `nobody` when running as root.
constexpr unsigned kUnprivilegedId = 65534;

// Drops root privileges in the current process (call it in a child only).
// Returns false when that fails; does nothing when not root.
bool drop_privileges();

// Runs `f` in a child process without root privileges and returns its result
// (or "<child failed>" when the child could not run it).
std::string run_unprivileged(const std::function<std::string()>& f);

}  // namespace klint::testing
