// The solver's level pipeline (cuda/src/level_pipeline.hpp): jobs run one at
// a time in submission order, beside the submitting thread, and a job's
// exception reaches the submitting thread.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "../cuda/src/level_pipeline.hpp"

namespace {

using cgtb::detail::level_pipeline;

TEST(LevelPipeline, JobsRunInOrderOneAtATimeOffTheSubmittingThread) {
  std::vector<int> order;
  std::atomic<int> running{0}, most{0};
  const auto self = std::this_thread::get_id();
  bool threads_right = true;  // submitted jobs off this thread, run_here jobs on it
  {
    level_pipeline p;
    for (int level = 0; level < 50; ++level) {
      auto job = [&, level] {
        most = std::max(most.load(), ++running);
        if ((std::this_thread::get_id() == self) != (level % 7 == 3)) threads_right = false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        order.push_back(level);
        --running;
      };
      if (level % 7 == 3)
        p.run_here(job);  // inline jobs wait for the one in flight too
      else
        p.submit(level, job);
    }
    p.wait();
    EXPECT_EQ(p.in_flight(), level_pipeline::none);
  }
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(most.load(), 1);
  EXPECT_TRUE(threads_right);
}

TEST(LevelPipeline, SubmittedJobRunsBesideTheSubmitter) {
  level_pipeline p;
  std::atomic<bool> started{false}, release{false};
  std::thread::id worker;
  p.submit(4, [&] {
    worker = std::this_thread::get_id();
    started = true;
    while (!release) std::this_thread::yield();
  });
  while (!started) std::this_thread::yield();  // submit returned while the job runs
  EXPECT_EQ(p.in_flight(), 4);
  release = true;
  p.wait();
  EXPECT_NE(worker, std::this_thread::get_id());
  EXPECT_EQ(p.in_flight(), level_pipeline::none);
}

TEST(LevelPipeline, AJobsExceptionIsRethrownOnceByTheNextCall) {
  level_pipeline p;
  p.submit(2, [] { throw std::runtime_error("disk full"); });
  try {
    p.submit(4, [] {});
    FAIL() << "the exception of level 2 was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_NO_THROW(p.wait());  // reported once; level 4 never ran after the failure
}

TEST(LevelPipeline, DestructorWaitsForTheJobInFlight) {
  std::atomic<bool> done{false};
  {
    level_pipeline p;
    p.submit(0, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = true;
    });
  }
  EXPECT_TRUE(done.load());
}

}  // namespace
