#include "compute_command.hpp"

#include <iostream>
#include <memory>
#include <optional>

#include "batch.hpp"
#include "common_options.hpp"
#include "compute_planes.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "inputs.hpp"
#include "messages.hpp"
#include "output_names.hpp"
#include "output_stream.hpp"
#include "progress.hpp"
#include "report_fields.hpp"
#include "writers.hpp"

namespace gpuhist::cli {
namespace {

std::optional<OutputFormat> parse_format(const std::string& name) {
  if (name == "table") return OutputFormat::Table;
  if (name == "json") return OutputFormat::Json;
  if (name == "csv") return OutputFormat::Csv;
  if (name == "npy") return OutputFormat::Npy;
  return std::nullopt;
}

}  // namespace

CLI::App* add_compute_command(CLI::App& app, ComputeArgs& args) {
  CLI::App* cmd =
      app.add_subcommand("compute", "Histograms and statistics of image files (default command)");
  cmd->add_option("files", args.inputs, "Image files and folders (searched recursively)")
      ->required();
  cmd->add_option("--format", args.format,
                  "Output format: table, json, csv or npy (json with --space ycbcr)")
      ->capture_default_str()
      ->each([&args](const std::string&) { args.format_given = true; });
  cmd->add_option("-o,--output", args.output, "Write to FILE instead of standard output");
  cmd->add_option("--bins", args.bins, "Number of bins, 1..65536")
      ->capture_default_str()
      ->transform(whole_number(1, 65536));
  cmd->add_option("--luma", args.luma, "Luminance weights: 709 (sRGB) or 601")
      ->capture_default_str();
  cmd->add_option(
      "--strategy", args.strategy,
      "cpu-reference, cpu, gpu-single, gpu-atomic, gpu-chunks-sum, gpu-chunks-reduce or "
      "gpu (default: on a hardware GPU, gpu from the image size where it is faster, about 160 KB "
      "of pixels, else cpu)");
  cmd->add_option("--chunk", args.chunk, "Chunk shape of the chunk strategies: 256x1 or 16x16")
      ->capture_default_str();
  cmd->add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str()
      ->transform(device_name());
  add_read_options(cmd, args.read, args.formats);
  cmd->add_flag("--merge", args.merge, "Also print the total over all files");
  cmd->add_flag("--no-progress", args.no_progress, "Never draw a progress bar");
  cmd->add_option("--plot", args.plot,
                  "Also write the report picture (as draw --report; OUT-<name>.png for several)");
  cmd->add_option("--percentiles", args.percentiles,
                  "Also give these percentiles of every channel, e.g. 5,25,75,95 (table, json)")
      ->check(number_list());
  cmd->add_option("--compare", args.compare,
                  "Compare every file's histograms with this image's (table, json)");
  cmd->add_option("--space", args.space,
                  "rgb: count R, G, B and luminance; ycbcr: count a JPEG's Y', Cb and Cr planes "
                  "as decoded, with no conversion (json keys y, cb, cr)")
      ->capture_default_str();
  return cmd;
}

int run_compute(const ComputeArgs& args) {
  // Planes are given as JSON alone, which they default to.
  const auto format =
      parse_format(args.space == "ycbcr" && !args.format_given ? "json" : args.format);
  if (!format) return usage_error("unknown --format '" + args.format + "' (table, json, csv, npy)");
  auto counting = parse_counting(args.bins, args.luma, args.strategy);
  if (!counting) return kExitUsage;
  const HistogramOptions options = counting->options;
  RunOptions run = counting->run;
  const auto chunk = parse_chunk_shape(args.chunk);
  if (!chunk) return usage_error("unknown --chunk '" + args.chunk + "' (256x1, 16x16)");
  run.chunk = *chunk;
  ReadOptions read = args.read;
  if (!parse_read_options(args.formats, read)) return kExitUsage;
  ReportFields fields;
  if (!set_percentiles(args.percentiles, fields)) return kExitUsage;
  const bool with_fields = !fields.percentiles.empty() || !args.compare.empty();
  if (with_fields && (*format == OutputFormat::Csv || *format == OutputFormat::Npy)) {
    return usage_error("--percentiles and --compare need --format table or json");
  }

  const std::optional<bool> counts_planes = parse_space(args.space, args.luma);
  if (!counts_planes) return kExitUsage;
  const bool planes = *counts_planes;
  if (planes && (*format != OutputFormat::Json || !args.plot.empty() || !args.compare.empty() ||
                 read.isolate || read.formats != FormatSet::Common)) {
    return usage_error(
        "--space ycbcr gives --format json (its default), without --plot, --compare, --isolate "
        "or --formats all");
  }

  int status = kExitOk;
  const bool named = run.strategy.has_value();
  std::optional<Context> context = open_for(args.device, run, status);
  if (!context) return status;
  const Strategy strategy = *run.strategy;
  // Unnamed, each image is counted by the strategy faster for its size.
  if (!named) run.strategy.reset();
  if (planes) return run_compute_planes(args, read, *context, options, run, fields);

  // Every file is compared with the reference, so a reference that cannot be
  // counted stops the run before any file.
  Histogram reference;
  status = set_reference(args.compare, *context, options, run, read, reference, fields);
  if (status != kExitOk) return status;

  const InputList inputs = expand_inputs(args.inputs, read.formats);
  const bool several = inputs.files.size() > 1;
  if (const std::string bad = unwritable_image_name(args.plot, several); !bad.empty())
    return usage_error(bad);
  // Outputs that are inputs would be emptied before they are read.
  const std::vector<std::filesystem::path> plots = output_names(args.plot, inputs.files, several);
  std::vector<std::filesystem::path> outputs = plots;
  if (!args.output.empty()) outputs.emplace_back(args.output);
  if (const std::string clash = overwritten_input(outputs, inputs.files, false); !clash.empty()) {
    return usage_error(clash);
  }
  if (const std::string clash = shared_output(outputs); !clash.empty()) return usage_error(clash);
  if (const std::string missing = missing_output_folder(outputs); !missing.empty()) {
    print_error(missing);
    return kExitOutput;
  }
  BatchStatus batch;
  batch.add(report_problems(inputs));
  std::optional<OutputStream> output;
  if (!batch.run(args.output, [&] { output.emplace(args.output, *format != OutputFormat::Npy); })) {
    return batch.status();
  }
  if (!output) return batch.status();
  std::ostream& out = output->stream();
  const auto writer = make_writer(*format, out, fields, options.bins);
  const bool many = inputs.files.size() != 1 || inputs.from_folder || args.merge;
  writer->begin(many);
  std::size_t written = 0;

  Entry total;
  total.file = "(total)";
  total.strategy = strategy;
  std::size_t merged = 0;
  InputDecoder decoder(inputs.files, read);
  Progress progress(inputs.files.size(), !args.no_progress);
  for (std::size_t i = 0; i < inputs.files.size(); ++i) {
    const auto& path = inputs.files[i];
    progress.update(i, path.string());
    std::optional<Image> image;
    bool entry_written = false;
    const bool go_on = batch.run(path, [&] {
      image = decoder.next();
      Entry entry;
      entry.file = path.string();
      entry.width = image->width;
      entry.height = image->height;
      entry.format = image->format;
      entry.alpha = image->alpha;
      entry.warning = image->warning;
      entry.notes = reading_notes(*image);
      entry.strategy = run.strategy.value_or(context->strategy_for(image->view()));
      entry.histogram = context->compute(image->view(), options, run);
      progress.clear();
      warn_about_file(path, *image);
      writer->write(entry);
      entry_written = true;
      ++written;
      if (args.merge) {
        total.histogram += entry.histogram;
        ++merged;
      }
      // The histograms are out before the picture is drawn: a picture that
      // cannot be written loses nothing else.
      if (!plots.empty()) {
        write_report(*context, *image, path.filename().string(), entry.histogram, DrawOptions{},
                     plots[i]);
        print_renamed_output(args.plot, path, plots[i]);
      }
    });
    progress.clear();
    if (!go_on) break;
    if (!entry_written) writer->unread(path.string());
  }
  progress.clear();
  // The total comes last, of no files too (zero counts): --merge's output
  // always ends with it.
  if (args.merge) {
    if (merged == 0) total.histogram = Histogram(options.bins, true);
    total.files = merged;
    writer->write(total);
  }
  writer->end();
  // One file that could not be read leaves no output: its single entry is
  // all there was to write (an -o target stays as it was).
  if (!many && written == 0) return batch.status();
  (void)batch.run(args.output, [&] { output->finish(); });
  return batch.status();
}

}  // namespace gpuhist::cli
