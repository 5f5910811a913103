// Work that another thread asks this one to stop: the language server asks
// when an edit makes the lint it runs stale. The lint then skips the rules it
// has not run and stops waiting for its compiler worker (which is killed).
// What it returns is cut short, and the one who asked reads none of it.
#pragma once

#include <atomic>

namespace klint::cancel {

// While it lives, the calling thread's work stops once `flag` is set.
class Scope {
 public:
  explicit Scope(const std::atomic<bool>& flag);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

// Whether the calling thread's work was asked to stop.
bool requested();

}  // namespace klint::cancel
