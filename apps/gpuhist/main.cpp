// gpuhist: the command-line tool. Parses the verb and its options, runs it,
// and turns every error into one line on stderr and a documented exit status.
#include <signal.h>

#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "decode_worker.hpp"
#include "exit_codes.hpp"
#include "gpuhist/output_file.hpp"
#include "messages.hpp"

namespace {

// An interrupted run leaves no half-written output: temporary files go, then
// the signal ends the process as it would have.
extern "C" void on_fatal_signal(int signal) {
  gpuhist::remove_unfinished_outputs();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// What the command wrote to std::cout (a device list, --help, --version)
// reached it: a failed write is status 4, as a failed output file is, unless
// something more serious already decided the status.
int flushed(int status) {
  if (gpuhist::cli::flush_stdout()) return status;
  gpuhist::cli::print_error(std::string("<stdout>: cannot write: ") +
                            std::strerror(gpuhist::cli::stdout_failure()));
  return status == 0 || status == gpuhist::cli::kExitInput ? gpuhist::cli::kExitOutput : status;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuhist::cli;
  keep_stdout_failures();
  if (argc == 2 && std::string(argv[1]) == kDecodeWorkerVerb) return run_decode_worker();
  // Every signal that ends a process by default, but for the ones that stop
  // it at once for a debugger or a crash; one ignored from the start (nohup's
  // SIGHUP, a background job's SIGINT) stays ignored.
  for (const int signal :
       {SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ}) {
    struct sigaction given {};
    if (::sigaction(signal, nullptr, &given) == 0 && given.sa_handler == SIG_IGN) continue;
    std::signal(signal, on_fatal_signal);
  }
  try {
    CommandLine command_line;
    if (const auto done = command_line.parse(std::vector<std::string>(argv + 1, argv + argc))) {
      return flushed(*done);
    }
    return flushed(command_line.run());
  } catch (const std::bad_alloc& e) {
    // Out of memory outside a file's run (a benchmark's images): status 1,
    // as it is for a file.
    print_error(describe(e));
    return kExitInput;
  } catch (const std::length_error& e) {
    print_error(describe(e));
    return kExitInput;
  } catch (const std::exception& e) {
    print_error(describe(e));
  } catch (...) {
    print_error("unexpected failure");
  }
  return kExitInternal;
}
