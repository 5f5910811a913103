// Runs independent work items on several threads and hands their results to
// one consumer in item order, as soon as each prefix is complete, so that the
// output of `klint -j N` is the output of `klint -j 1`, only sooner.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace klint {

// The default number of threads: every core.
unsigned default_jobs();

// Calls work(i) for every i in [0, count) on up to `threads` threads, and
// consume(i, result) on the calling thread for i = 0, 1, 2, ... in order.
template <typename Work, typename Consume>
void ordered_parallel_for(size_t count, unsigned threads, Work work, Consume consume) {
  using Result = decltype(work(size_t{0}));
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::min<size_t>(count, 1024))));
  if (threads == 1) {
    for (size_t i = 0; i < count; ++i) consume(i, work(i));
    return;
  }
  std::vector<std::optional<Result>> results(count);
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      Result result = work(i);
      std::lock_guard lock(mutex);
      results[i] = std::move(result);
      ready.notify_all();
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (size_t i = 0; i < count; ++i) {
    std::optional<Result> result;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return results[i].has_value(); });
      result = std::move(results[i]);
      results[i].reset();
    }
    consume(i, std::move(*result));
  }
}

}  // namespace klint
