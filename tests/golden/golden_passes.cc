// The golden pass tests' driver: runs `gec opt` on one case and compares the graph it writes,
// as a canonical listing, with the case's expected listing (tests/golden/README.md).
//   ge_golden_passes GEC CASE.pbtxt
// CASE.pbtxt opens with directive comments:
//   # OPT: --passes InferShape,ConstantFolding [other gec opt flags]
//   # UNCHANGED-BY: ConstantFolding    (optional: that pass must leave the graph as it found it)
// The expected listing is CASE.expected; with OPENGE_GOLDEN_UPDATE=1 it is written, not compared.
// Exits 0 when the listings match, 1 otherwise, with the reason (and a diff) on stderr.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ge/graph/serialize/model_serialize.h"
#include "graph_listing.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Case {
  fs::path input;
  fs::path expected;
  std::string name;
  std::vector<std::string> opt_args;  // what follows `gec opt CASE.pbtxt`
  std::string unchanged_by;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// Reads the directives; an error names the file and what is missing.
bool ReadCase(const fs::path& input, Case& c, std::string& error) {
  c.input = input;
  c.expected = fs::path(input).replace_extension(".expected");
  c.name = input.stem().string();
  std::ifstream in(input);
  if (!in) {
    error = "cannot read " + input.string();
    return false;
  }
  bool have_opt = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# OPT:", 0) == 0) {
      c.opt_args = Words(line.substr(6));
      have_opt = true;
    } else if (line.rfind("# UNCHANGED-BY:", 0) == 0) {
      const std::vector<std::string> words = Words(line.substr(15));
      if (words.size() == 1) c.unchanged_by = words[0];
    }
  }
  if (!have_opt) {
    error = input.string() + " has no '# OPT: --passes ...' line";
    return false;
  }
  return true;
}

// The value of --passes in `args`, split at commas.
std::vector<std::string> Passes(const std::vector<std::string>& args) {
  std::vector<std::string> passes;
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--passes") continue;
    std::istringstream in(args[i + 1]);
    for (std::string pass; std::getline(in, pass, ',');) passes.push_back(pass);
  }
  return passes;
}

// `args` with --passes set to `passes` and without --dump-after.
std::vector<std::string> WithPasses(const std::vector<std::string>& args,
                                    const std::vector<std::string>& passes) {
  std::string list;
  for (const std::string& p : passes) list += (list.empty() ? "" : ",") + p;
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--passes" || args[i] == "--dump-after") && i + 1 < args.size()) {
      if (args[i] == "--passes") out.insert(out.end(), {"--passes", list});
      ++i;
      continue;
    }
    out.push_back(args[i]);
  }
  return out;
}

// Runs `gec opt INPUT ARGS -o OUTPUT` without a shell, in the case's directory (so that a file
// the graph names by a relative path, a FileConstant's, is the one beside the case); false (with
// gec's stderr) on failure.
bool RunOpt(const std::string& gec, const Case& c, const std::vector<std::string>& args,
            const fs::path& output, std::string& error) {
  const fs::path err_path = fs::path(output).replace_extension(".stderr");
  const fs::path input = fs::absolute(c.input);
  std::vector<std::string> argv = {fs::absolute(gec).string(), "opt", input.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-o", output.string()});
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, input.parent_path().c_str());
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  std::string command;
  for (size_t i = 0; i + 1 < raw.size(); ++i) command += (i == 0 ? "" : " ") + argv[i];
  if (spawned != 0) {
    error = "cannot start " + gec;
    return false;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "`" + command + "` failed:\n" + ReadFile(err_path);
    return false;
  }
  return true;
}

// The listing of the graph gec wrote (loading it also checks that it reads back).
bool Listing(const fs::path& path, std::string& listing, std::string& error) {
  auto graph = ge::ModelSerialize::LoadFromFile(path.string());
  if (!graph.ok()) {
    error = "gec opt wrote a graph that does not load: " + graph.status().message();
    return false;
  }
  listing = ge::golden::GraphListing(**graph);
  return true;
}

bool OptListing(const std::string& gec, const Case& c, const std::vector<std::string>& args,
                const fs::path& output, std::string& listing, std::string& error) {
  return RunOpt(gec, c, args, output, error) && Listing(output, listing, error);
}

// The pass named by UNCHANGED-BY leaves the graph as the passes before it left it.
bool CheckUnchanged(const std::string& gec, const Case& c, const fs::path& dir,
                    std::string& error) {
  const std::vector<std::string> passes = Passes(c.opt_args);
  const auto at = std::find(passes.begin(), passes.end(), c.unchanged_by);
  if (at == passes.end() || at == passes.begin()) {
    error = "UNCHANGED-BY " + c.unchanged_by + ": it must be one of --passes, after another";
    return false;
  }
  const std::vector<std::string> before(passes.begin(), at);
  const std::vector<std::string> through(passes.begin(), at + 1);
  std::string listing_before;
  std::string listing_after;
  if (!OptListing(gec, c, WithPasses(c.opt_args, before), dir / "before.pbtxt", listing_before,
                  error) ||
      !OptListing(gec, c, WithPasses(c.opt_args, through), dir / "after.pbtxt", listing_after,
                  error)) {
    return false;
  }
  if (listing_before == listing_after) return true;
  error = c.unchanged_by + " changed the graph, which this case says it must not (- before it, " +
          "+ after it):\n" + ge::golden::LineDiff(listing_before, listing_after);
  return false;
}

int Fail(const Case& c, const std::string& error) {
  std::cerr << "GoldenPasses." << c.name << ": " << error << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: ge_golden_passes GEC CASE.pbtxt\n";
    return 2;
  }
  const std::string gec = argv[1];
  Case c;
  std::string error;
  if (!ReadCase(argv[2], c, error)) return Fail(c, error);
  const fs::path dir = fs::absolute(fs::temp_directory_path() /
                                    ("golden_" + c.name + "_" + std::to_string(getpid())));
  fs::create_directories(dir);
  struct RemoveDir {
    fs::path dir;
    ~RemoveDir() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};

  std::string actual;
  if (!OptListing(gec, c, c.opt_args, dir / "out.pbtxt", actual, error)) return Fail(c, error);
  if (!c.unchanged_by.empty() && !CheckUnchanged(gec, c, dir, error)) return Fail(c, error);

  const char* update = std::getenv("OPENGE_GOLDEN_UPDATE");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(c.expected, std::ios::binary) << actual;
    std::cout << "wrote " << c.expected.string() << "\n";
    return 0;
  }
  if (!fs::exists(c.expected)) {
    return Fail(c, "no " + c.expected.string() + "; write it with OPENGE_GOLDEN_UPDATE=1");
  }
  const std::string expected = ReadFile(c.expected);
  if (expected == actual) {
    std::cout << actual;
    return 0;
  }
  return Fail(c, "the graph differs from " + c.expected.filename().string() +
                     " (- expected, + actual):\n" + ge::golden::LineDiff(expected, actual) +
                     "if the change is right: OPENGE_GOLDEN_UPDATE=1 ctest -R 'GoldenPasses\\." +
                     c.name + "$'");
}
