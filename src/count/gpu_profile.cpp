// The benchmark side of GpuCounter: strategies and copies timed on the GPU.
#include <algorithm>
#include <cstring>

#include "count/gpu_counter.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::count {

Profile GpuCounter::profile(const ImageView& image, const HistogramOptions& options,
                            Strategy strategy, ChunkShape chunk, std::uint32_t repetitions) {
  const GpuPlan plan = make_plan(image, options, strategy, chunk);
  if (plan.batches.size() != 1) {
    throw Error(ErrorKind::InvalidArgument, "image too large to profile in one batch");
  }
  const Batch& batch = plan.batches.front();
  prepare(plan, batch.pixel_count, plan.bpp);
  const bool direct = device_.unified_memory();
  upload(image, batch, direct ? pixels_.mapped() : staging_.mapped(), upload_.stream);
  if (!direct) {
    vk::Submission copy(device_, pipelines_, bindings(plan));
    copy.copy(staging_.get(), pixels_.get(), batch.pixel_count * plan.bpp);
    copy.submit_and_wait();
  }
  const std::uint32_t runs = std::max(1U, repetitions);
  vk::Timestamps timestamps(device_, 2 * runs);
  const CountersGuard guard(*this);
  vk::Submission submission(device_, pipelines_, bindings(plan));
  submission.reset_queries(timestamps.get(), 2 * runs);
  for (std::uint32_t run = 0; run < runs; ++run) {
    // Each run starts after the previous one has finished.
    submission.barrier();
    submission.timestamp(timestamps.get(), 2 * run);
    // Zeroed counters must land before the shaders add to them.
    if (zero_counters(submission, plan)) submission.barrier();
    record(submission, plan, batch);
    submission.timestamp(timestamps.get(), 2 * run + 1);
  }
  // The last run's counts must be final before they are copied out.
  submission.barrier();
  submission.copy(result_.get(), readback_.get(), plan.histogram_bytes);
  // The copy must be visible to the host after the wait.
  submission.barrier_to_host();
  submission.submit_and_wait();
  counters_settled();
  Profile profile{Histogram(options.bins, is_colour(image.format.layout)),
                  timestamps.intervals_ms()};
  add_readback(plan, profile.histogram);
  return profile;
}

}  // namespace gpuhist::count
