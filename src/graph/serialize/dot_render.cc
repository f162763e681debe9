// GraphDump::RenderDot and WriteFile: running Graphviz's `dot` without a shell, with a bound.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "ge/graph/serialize/graph_dump.h"

extern char** environ;

namespace ge {

namespace {

constexpr int kNotFoundExit = 127;  // what a child that could not exec exits with

std::string MissingDot(const std::string& program) {
  return "Graphviz's '" + program +
         "' program was not found on PATH; install the Debian package graphviz "
         "(apt-get install graphviz) to render DOT files";
}

/// The first bytes of a file, for error messages.
std::string Head(const std::string& path, size_t limit) {
  std::ifstream file(path, std::ios::binary);
  std::string text(limit, '\0');
  file.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<size_t>(file.gcount()));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

/// Removes a temporary file when it goes out of scope.
struct TempFile {
  std::string path;
  int fd = -1;
  TempFile() {
    std::string pattern = "/tmp/ge_dot_stderr_XXXXXX";
    fd = ::mkstemp(pattern.data());
    if (fd >= 0) path = pattern;
  }
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!path.empty()) ::unlink(path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

}  // namespace

Status GraphDump::WriteFile(const std::string& path, std::string_view text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (file) file.close();
  if (!file) {
    return Failed("cannot write '" + path + "' (" + std::strerror(errno) + ")");
  }
  return Status::Ok();
}

Status GraphDump::RenderDot(const std::string& dot_path, const std::string& output_path,
                            const std::string& format, int timeout_seconds,
                            const std::string& dot_program) {
  const std::string where = "render '" + dot_path + "' to '" + output_path + "'";
  std::vector<std::string> args = {dot_program, "-T" + format, "-o", output_path, dot_path};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  TempFile errors;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (errors.fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, errors.fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errors.fd, STDERR_FILENO);
  }
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, dot_program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) return Failed(where + ": " + MissingDot(dot_program));
  if (rc != 0) return Failed(where + ": cannot run '" + dot_program + "': " + std::strerror(rc));

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  int wait_status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &wait_status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      return Failed(where + ": waiting for '" + dot_program + "' failed: " + std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &wait_status, 0);
      return Failed(where + ": '" + dot_program + "' did not finish within " +
                    std::to_string(timeout_seconds) + " s and was stopped");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) return Status::Ok();
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == kNotFoundExit) {
    return Failed(where + ": " + MissingDot(dot_program));
  }
  const std::string message = errors.path.empty() ? std::string() : Head(errors.path, 600);
  return Failed(where + ": '" + dot_program + "' failed" +
                (WIFEXITED(wait_status)
                     ? " with exit code " + std::to_string(WEXITSTATUS(wait_status))
                     : std::string(" (killed by a signal)")) +
                (message.empty() ? std::string() : ": " + message));
}

}  // namespace ge
