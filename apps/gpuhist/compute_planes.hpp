// `gpuhist compute --space ycbcr`: the Y', Cb and Cr planes of JPEG files as
// the decoder hands them over, counted with no colour conversion.
#pragma once

#include "compute_command.hpp"
#include "gpuhist/context.hpp"
#include "report_fields.hpp"

namespace gpuhist::cli {

// Each JPEG's planes as FFmpeg's JPEG decoder produces them (the levels
// `ffmpeg -i FILE -f rawvideo` writes: Y' full size, Cb and Cr at their
// subsampled size), each counted as one channel, written as JSON: an object
// for one file, an array for several, a folder or --merge (which adds their
// total). A file of another format, or one the decoder finds damaged, is that
// file's error (exit status 1); the others are still counted. Returns the
// exit status.
int run_compute_planes(const ComputeArgs& args, const ReadOptions& read, const Context& context,
                       const HistogramOptions& options, const RunOptions& run,
                       const ReportFields& fields);

}  // namespace gpuhist::cli
