// Hands each solved level to the build's consumer (compression and writing,
// host/include/cgtb/build.hpp) on a host thread of its own, so that the
// backend solves the next level meanwhile. Included only by level_loop.hpp.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace cgtb::detail {

/// One level in flight at a time: submit() waits for the level before it,
/// then starts the job on the worker thread and returns. A job's exception is
/// rethrown by the next submit(), wait() or run_here() (the build then
/// fails as it would have had the job run on the calling thread). The worker
/// is one persistent thread, so OpenMP keeps its team for it across levels.
class level_pipeline {
 public:
  /// `enter`: run first on the worker thread (the backend's per-thread set-up,
  /// e.g. the OpenMP team size of --threads).
  explicit level_pipeline(std::function<void()> enter = nullptr) : enter_(std::move(enter)) {}
  level_pipeline(const level_pipeline&) = delete;
  level_pipeline& operator=(const level_pipeline&) = delete;
  /// Waits for the level in flight (its exception, if any, is dropped: the
  /// destructor runs while another exception unwinds the solve, or after
  /// wait() already reported it) and stops the worker.
  ~level_pipeline() {
    if (!worker_.joinable()) return;
    {
      std::unique_lock<std::mutex> lock(m_);
      idle_.wait(lock, [&] { return !job_; });
      stop_ = true;
    }
    ready_.notify_one();
    worker_.join();
  }

  /// Level of the job in flight, or `none` when the worker is idle.
  static constexpr int none = -1;
  int in_flight() {
    std::lock_guard<std::mutex> lock(m_);
    return job_ ? level_ : none;
  }

  /// Runs job (for level `level`) on the worker thread.
  void submit(int level, std::function<void()> job) {
    wait();
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = std::move(job);
      level_ = level;
    }
    ready_.notify_one();
  }
  /// Runs job on the calling thread, after the level in flight (levels too
  /// small for a hand-over to pay).
  void run_here(const std::function<void()>& job) {
    wait();
    job();
  }
  /// Waits until no level is in flight; rethrows the exception of the last
  /// job, if it threw.
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    idle_.wait(lock, [&] { return !job_; });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void work() {
    if (enter_) enter_();
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(m_);
        ready_.wait(lock, [&] { return job_ || stop_; });
        if (!job_) return;
        job = job_;
      }
      std::exception_ptr e;
      try {
        job();
      } catch (...) {
        e = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(m_);
        error_ = e;
        job_ = nullptr;
      }
      idle_.notify_all();
    }
  }

  std::mutex m_;
  std::condition_variable ready_, idle_;
  std::function<void()> enter_, job_;
  int level_ = none;
  std::exception_ptr error_;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace cgtb::detail
