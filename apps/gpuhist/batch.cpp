#include "batch.hpp"

#include <exception>

#include "exit_codes.hpp"
#include "gpuhist/error.hpp"
#include "messages.hpp"

namespace gpuhist::cli {
namespace {

int seriousness(int status) {
  switch (status) {
    case kExitOk:
      return 0;
    case kExitInput:
      return 1;
    case kExitOutput:
      return 2;
    case kExitUsage:
      return 3;
    case kExitDevice:
      return 4;
    default:
      return 5;
  }
}

}  // namespace

void BatchStatus::add(int status) {
  if (seriousness(status) > seriousness(status_)) status_ = status;
}

bool BatchStatus::run(const std::filesystem::path& file, const std::function<void()>& work) {
  try {
    work();
    return true;
  } catch (const Error& e) {
    print_error(describe(e));
    add(exit_status(e.kind()));
    return e.kind() != ErrorKind::Device && e.kind() != ErrorKind::InvalidArgument;
  } catch (const std::exception& e) {
    print_error(file.string() + ": " + describe(e));
    add(kExitInput);
    return true;
  }
}

}  // namespace gpuhist::cli
