#include "driver/parallel.h"

#include <sched.h>

namespace klint {

// The cores this process may run on (a container's or taskset's limit), which
// hardware_concurrency does not see.
unsigned default_jobs() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace klint
