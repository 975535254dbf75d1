// onyx/core/thread_pool.hpp: the fork-join pool kernels split their loops on.
//
// A pool of size N is N-1 worker threads plus the thread that calls
// parallel_for, which runs the first chunk itself. Chunks are static and
// contiguous (chunk c of n items is [n*c/k, n*(c+1)/k)), so a kernel that
// splits on tile boundaries computes the same bits for any pool size.
//
// Waiting: after a job, workers spin for `spin_time` and then block on a
// condition variable, so an idle session costs no CPU between runs. 1 ms
// spans the serial work between two parallel ops of a run; waking a blocked
// worker costs tens of microseconds, more than many ops take (measured with
// 2 threads: ShuffleNet 8.7 -> 4.4 ms, SqueezeNet 8.0 -> 6.0 ms against a
// 10 us spin).
//
// Not reentrant: a parallel_for issued while the pool is busy, from inside a
// chunk (nesting) or from another thread (two sessions sharing a pool), runs
// inline and serially on the calling thread. It never blocks on the pool, so
// it cannot deadlock. `fn` must not throw.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "onyx/core/function_ref.hpp"

namespace onyx {

class thread_pool {
 public:
  using range_fn = function_ref<void(std::int64_t begin, std::int64_t end)>;

  /// `threads` counts the caller: 4 starts 3 workers; <= 1 starts none.
  explicit thread_pool(int threads) : state_(std::make_unique<state>()) {
    const int workers = std::max(threads, 1) - 1;
    workers_.reserve(static_cast<std::size_t>(workers));
    for (int w = 0; w < workers; ++w) workers_.emplace_back([s = state_.get(), w] { s->work(w + 1); });
  }
  ~thread_pool() {
    {
      std::lock_guard lock(state_->mutex);
      state_->stop = true;
    }
    state_->wake.notify_all();
    for (auto& t : workers_) t.join();
  }
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  /// Threads that run chunks, the caller included.
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls fn(begin, end) on disjoint contiguous ranges covering [0, n), at
  /// most size() of them, each at least `min_chunk` long (except when n is
  /// smaller). Returns when all have run. Inline when one chunk suffices.
  void parallel_for(std::int64_t n, std::int64_t min_chunk, range_fn fn) const {
    if (n <= 0) return;
    const std::int64_t chunks = std::min<std::int64_t>(size(), n / std::max<std::int64_t>(min_chunk, 1));
    bool idle = false;
    if (chunks <= 1 || !state_->busy.compare_exchange_strong(idle, true, std::memory_order_acquire)) {
      fn(0, n);
      return;
    }
    state_->run(n, chunks, fn, static_cast<int>(workers_.size()));
    state_->busy.store(false, std::memory_order_release);
  }

 private:
  static constexpr auto spin_time = std::chrono::milliseconds(1);

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");  // the spin hint; a sched_yield system call per pause costs microseconds
#else
    std::this_thread::yield();
#endif
  }

  // Spins on `done()` for spin_time, checking the clock every 64 pauses.
  template <class Pred>
  static bool spin_until(Pred done) {
    const auto until = std::chrono::steady_clock::now() + spin_time;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (done()) return true;
        pause();
      }
      if (std::chrono::steady_clock::now() > until) return done();
    }
  }

  // Shared with the workers; lives on the heap so parallel_for can be const.
  struct state {
    std::mutex mutex;
    std::condition_variable wake;  // workers: a new job or stop
    std::condition_variable done;  // caller: every worker has acknowledged
    std::atomic<std::uint64_t> generation{0};
    std::atomic<int> pending{0};   // workers yet to acknowledge the job
    std::atomic<bool> busy{false};
    bool stop = false;
    // The job, written before `generation` is bumped (release) and read after
    // a worker sees the bump (acquire). The next job waits for every worker's
    // acknowledgement, so a job is never rewritten while a worker reads it.
    const range_fn* fn = nullptr;
    std::int64_t n = 0, chunks = 0;

    void run_chunk(std::int64_t c) const {
      if (c < chunks) (*fn)(n * c / chunks, n * (c + 1) / chunks);
    }

    void run(std::int64_t items, std::int64_t k, const range_fn& f, int workers) noexcept {
      {
        std::lock_guard lock(mutex);
        fn = &f;
        n = items;
        chunks = k;
        pending.store(workers, std::memory_order_relaxed);
        generation.fetch_add(1, std::memory_order_release);
      }
      wake.notify_all();
      run_chunk(0);
      if (!spin_until([this] { return pending.load(std::memory_order_acquire) == 0; })) {
        std::unique_lock lock(mutex);
        done.wait(lock, [this] { return pending.load(std::memory_order_acquire) == 0; });
      }
    }

    void work(int index) noexcept {
      std::uint64_t seen = 0;
      for (;;) {
        auto fresh = [&] { return generation.load(std::memory_order_acquire) != seen; };
        if (!spin_until(fresh)) {
          std::unique_lock lock(mutex);
          wake.wait(lock, [&] { return stop || fresh(); });
          if (stop) return;
        }
        seen = generation.load(std::memory_order_acquire);
        run_chunk(index);
        if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard lock(mutex);  // pairs with the caller's predicate check
          done.notify_one();
        }
      }
    }
  };

  std::unique_ptr<state> state_;
  std::vector<std::thread> workers_;
};

}  // namespace onyx
