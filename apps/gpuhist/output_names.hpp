// The names of a command's outputs, one per input: OUT itself for one input,
// OUT-<name>.EXT for each of several.
#pragma once

#include <filesystem>
#include <vector>

namespace gpuhist::cli {

// With `several` (or more than one input), input `i` gives OUT-<stem>.EXT.
// Inputs whose stems are the same (c1/x.png and c2/x.png) get the names of
// their folders too, the nearest first (OUT-c1-x.EXT, OUT-c2-x.EXT), and any
// names still the same a number (OUT-x-2.EXT), so no output overwrites
// another. Empty for an empty `output`.
[[nodiscard]] std::vector<std::filesystem::path> output_names(
    const std::filesystem::path& output, const std::vector<std::filesystem::path>& inputs,
    bool several);

// An output that is one of the inputs would destroy it before it is read:
// the first such output, as a one-line message, or empty when there is none.
// With `may_replace_own`, output i may be input i itself (an adjustment reads
// its input whole before writing the output).
[[nodiscard]] std::string overwritten_input(const std::vector<std::filesystem::path>& outputs,
                                            const std::vector<std::filesystem::path>& inputs,
                                            bool may_replace_own);

}  // namespace gpuhist::cli
