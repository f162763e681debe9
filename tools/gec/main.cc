// gec: compile a model, look at what the compiler did, run it.
//   gec compile MODEL -o OUT.om [--input-shape ...] [--option K=V]... [--disable-pass P]...
//   gec dump MODEL --stage parsed|optimized|built --format txt|pbtxt|dot|svg|png|json -o FILE
//   gec plan MODEL [--json] [--svg FILE]
//   gec opt MODEL --passes A,B[,..] [--dump-after P] [--input-shape ..] [--option K=V]... [-o FILE]
//     runs only the named pipeline passes, in order, and writes the graph after the last (or
//     after P's first run) as GE pbtxt, which gec opt reads again (tests/golden/README.md)
//   gec ops [--engine NAME] | gec engines | gec options
// Every error is one line on stderr ("gec: error: ...") and a non-zero exit status.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "commands.h"
#include "ge/graph/log.h"
#include "gec.h"

namespace {

int Main(int argc, char** argv) {
  CLI::App app{"gec: the OpenGE compiler (compile, inspect and run models)"};
  app.require_subcommand(1);
  std::string log_level;
  app.add_option("--log-level", log_level,
                 "debug, info, warning, error or none (default: ASCEND_GLOBAL_LOG_LEVEL, else "
                 "error)")
      ->check(CLI::IsMember({"debug", "info", "warning", "error", "none"}));
  gec::Commands commands;
  commands.Register(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (!log_level.empty()) ge::SetLogThreshold(*ge::ParseLogLevel(log_level));
  // The library returns every failure as a Status; this catches what a bug might still throw.
  ge::Status status = ge::CatchExceptions("gec", [&] { return commands.Run(); });
  if (!status.ok()) {
    gec::ProgressDone();
    std::string message = status.message();
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    // One write per line: the ranks of a pipeline share one stream, and a line written in
    // pieces may be cut by another rank's.
    std::cerr << ("gec: error: " + message + "\n");
    return 1;
  }
  return 0;
}

}  // namespace

// Setting up the command line allocates; what it may throw becomes one error line too.
int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << ("gec: error: " + std::string(e.what()) + "\n");
  } catch (...) {
    std::cerr << "gec: error: an unknown exception\n";
  }
  return 1;
}
