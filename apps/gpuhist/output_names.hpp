// The names of a command's outputs, one per input: OUT itself for one input,
// OUT-<name>.EXT for each of several.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpuhist::cli {

// With `several` (or more than one input), input `i` gives OUT-<stem>.EXT.
// Inputs whose stems are the same (c1/x.png and c2/x.png) get the names of
// their folders too, the nearest first (OUT-c1-x.EXT, OUT-c2-x.EXT), unless
// they are all in one folder (a file named twice, however its path is
// written, or x.png and x.jpg), and any names still the same a number
// (OUT-x-2.EXT; and OUT-x-2-2.EXT for an input x-2 that then meets it), so no
// output overwrites another. Empty for an empty `output`.
[[nodiscard]] std::vector<std::filesystem::path> output_names(
    const std::filesystem::path& output, const std::vector<std::filesystem::path>& inputs,
    bool several);

// The note a command prints once it has written `written`, the output of
// `input`, where that name carries more than OUT-<stem> (a folder, or a number
// for a name given twice), so that no output's name is a guess: "gpuhist:
// INPUT: written as WRITTEN (its own name would clash with another output)".
// Empty otherwise.
[[nodiscard]] std::string renamed_output_note(const std::filesystem::path& output,
                                              const std::filesystem::path& input,
                                              const std::filesystem::path& written);
// Prints that note on stderr, where there is one.
void print_renamed_output(const std::filesystem::path& output, const std::filesystem::path& input,
                          const std::filesystem::path& written);

// The first output whose folder is missing or is no folder, as the one-line
// error writing it would give ("OUT: cannot write: No such file or
// directory"), or empty: said once, before any input is decoded, rather than
// once per input.
[[nodiscard]] std::string missing_output_folder(const std::vector<std::filesystem::path>& outputs);

// `output` (an image to write, or with `several` the pattern OUT of
// OUT-<name>.EXT) with an extension that names no image format images can be
// written to: a one-line message, or empty when it names one (or is empty).
// A single output that is not a regular file (/dev/null, a pipe) takes PNG.
[[nodiscard]] std::string unwritable_image_name(const std::filesystem::path& output, bool several);

// Two outputs of one run that are one file (`--plot` named as `-o`, or a plot
// of several inputs given the name of the output): the second would replace
// the first. A one-line message naming both, or empty when there is none.
[[nodiscard]] std::string shared_output(const std::vector<std::filesystem::path>& outputs);

// An output that is one of the inputs would destroy it before it is read:
// the first such output, as a one-line message, or empty when there is none.
// With `may_replace_own`, output i may be input i itself (an adjustment reads
// its input whole before writing the output).
[[nodiscard]] std::string overwritten_input(const std::vector<std::filesystem::path>& outputs,
                                            const std::vector<std::filesystem::path>& inputs,
                                            bool may_replace_own);

}  // namespace gpuhist::cli
