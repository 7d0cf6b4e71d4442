#include "compute_planes.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "batch.hpp"
#include "entry_json.hpp"
#include "exit_codes.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_planes.hpp"
#include "messages.hpp"
#include "output_names.hpp"
#include "output_stream.hpp"
#include "planes_json.hpp"
#include "progress.hpp"

namespace gpuhist::cli {

int run_compute_planes(const ComputeArgs& args, const ReadOptions& read, const Context& context,
                       const HistogramOptions& options, const RunOptions& run,
                       const ReportFields& fields) {
  const InputList inputs = expand_inputs(args.inputs, read.formats);
  std::vector<std::filesystem::path> outputs;
  if (!args.output.empty()) outputs.emplace_back(args.output);
  if (const std::string clash = overwritten_input(outputs, inputs.files, false); !clash.empty()) {
    return usage_error(clash);
  }
  BatchStatus batch;
  batch.add(report_problems(inputs));
  std::optional<OutputStream> output;
  if (!batch.run(args.output, [&] { output.emplace(args.output); })) return batch.status();
  if (!output) return batch.status();
  std::ostream& out = output->stream();
  const bool many = inputs.files.size() != 1 || inputs.from_folder || args.merge;
  if (many) out << "[\n";
  std::size_t written = 0;
  const auto write = [&](const JsonRow& entry) {
    if (many && written > 0) out << ",\n";
    out << json_text(entry);
    if (!many) out << '\n';
    ++written;
    out.flush();
  };
  std::vector<Histogram> total;
  std::size_t merged = 0;
  Progress progress(inputs.files.size(), !args.no_progress);
  for (std::size_t i = 0; i < inputs.files.size(); ++i) {
    const auto& path = inputs.files[i];
    progress.update(i, path.string());
    const bool go_on = batch.run(path, [&] {
      const VideoFrame frame = read_jpeg_planes(path, read.max_pixels);
      std::vector<Histogram> planes;
      for (const ImageView& plane : frame.planes) {
        planes.push_back(context.compute(plane, options, run));
      }
      JsonRow entry;
      entry.object["file"] = path.string();
      add_planes_json(entry, frame, planes, fields);
      entry.object["bins"] = options.bins;
      progress.clear();
      write(entry);
      if (args.merge) {
        add_planes(total, planes);
        ++merged;
      }
    });
    progress.clear();
    if (!go_on) break;
  }
  progress.clear();
  // The total comes last, of no files too (zero counts of Y', Cb and Cr).
  if (args.merge) {
    if (merged == 0) total.assign(3, Histogram(options.bins, false));
    JsonRow entry;
    entry.object["file"] = "(total)";
    entry.object["files"] = merged;
    entry.object["space"] = "ycbcr";
    add_plane_counts_json(entry, total, fields);
    entry.object["bins"] = options.bins;
    write(entry);
  }
  if (many) out << (written > 0 ? "\n]\n" : "]\n");
  // One file that could not be read leaves no output (an -o target as it was).
  if (!many && written == 0) return batch.status();
  (void)batch.run(args.output, [&] { output->finish(); });
  return batch.status();
}

}  // namespace gpuhist::cli
