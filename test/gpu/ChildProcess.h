// Runs a program as a child process for the GPU suite: a program that checks
// what a process prints, or how it ends (an assert, a fault, a setting read
// at start), runs itself again with other arguments and settings. The child
// is started with posix_spawn, not through a shell, so no argument needs
// quoting, and its environment is made here, not with setenv in the parent.
#ifndef MSTAGE_TEST_GPU_CHILDPROCESS_H
#define MSTAGE_TEST_GPU_CHILDPROCESS_H

#include <cerrno>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

// How a child ended and what it printed.
struct ChildResult {
  // Its exit status; 128 + the signal's number when a signal ended it (as a
  // shell reports it); -1 when it could not be started.
  int Status = -1;
  std::string Output; // its stdout, and its stderr too when asked for
};

// Runs Program with Args, in this process's environment changed by Env:
// "NAME=value" sets NAME, "NAME" alone removes it. With WithStderr the
// child's stderr is captured with its stdout; else it goes to ours.
inline ChildResult runProgram(const std::string &Program,
                              const std::vector<std::string> &Args,
                              const std::vector<std::string> &Env = {},
                              bool WithStderr = true) {
  ChildResult R;
  auto NameOf = [](const std::string &Setting) {
    return Setting.substr(0, Setting.find('='));
  };
  std::vector<std::string> Environment;
  for (char **E = environ; *E; ++E) {
    std::string Setting = *E;
    bool Replaced = false;
    for (const std::string &Change : Env)
      Replaced = Replaced || NameOf(Change) == NameOf(Setting);
    if (!Replaced)
      Environment.push_back(Setting);
  }
  for (const std::string &Change : Env)
    if (Change.find('=') != std::string::npos)
      Environment.push_back(Change);
  std::vector<char *> Argv = {const_cast<char *>(Program.c_str())};
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::vector<char *> Envp;
  for (std::string &S : Environment)
    Envp.push_back(S.data());
  Envp.push_back(nullptr);

  int Pipe[2];
  if (pipe(Pipe) != 0)
    return R;
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addclose(&Actions, Pipe[0]);
  posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDOUT_FILENO);
  if (WithStderr)
    posix_spawn_file_actions_adddup2(&Actions, Pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&Actions, Pipe[1]);
  pid_t Pid;
  int Err = posix_spawn(&Pid, Program.c_str(), &Actions, nullptr, Argv.data(),
                        Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  close(Pipe[1]);
  if (Err == 0) {
    char Buf[4096];
    for (ssize_t N; (N = read(Pipe[0], Buf, sizeof Buf)) != 0;)
      if (N > 0)
        R.Output.append(Buf, size_t(N));
      else if (errno != EINTR)
        break;
  }
  close(Pipe[0]);
  if (Err != 0)
    return R;
  int WaitStatus;
  while (waitpid(Pid, &WaitStatus, 0) < 0)
    if (errno != EINTR)
      return R;
  R.Status = WIFEXITED(WaitStatus)     ? WEXITSTATUS(WaitStatus)
             : WIFSIGNALED(WaitStatus) ? 128 + WTERMSIG(WaitStatus)
                                       : -1;
  return R;
}

// This program's path, to run it again as a child; empty if unknown.
inline std::string selfPath() {
  char Path[4096];
  ssize_t Len = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  return Len > 0 ? std::string(Path, size_t(Len)) : std::string();
}

// Runs this program again (runProgram).
inline ChildResult runThisProgram(const std::vector<std::string> &Args,
                                  const std::vector<std::string> &Env = {},
                                  bool WithStderr = true) {
  return runProgram(selfPath(), Args, Env, WithStderr);
}

#endif
