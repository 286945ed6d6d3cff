//===- mstage++.cpp - The compiler driver: clang++ with mstage loaded
//------===//
//
// Accepts everything clang++ accepts. It adds the mstage plugin (front-end
// checks and kernel extraction), the mstage include directory and, when the
// command links, the runtime library. All three are found relative to this
// program (<prefix>/bin/mstage++), so an installed tree can be moved; the
// build tree has the same layout (build/include links to the sources').
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef MSTAGE_CLANGXX
#error "MSTAGE_CLANGXX must name the clang++ to wrap"
#endif
#ifndef MSTAGE_VERSION_STRING
#error "MSTAGE_VERSION_STRING must give mstage's version"
#endif

using namespace llvm;

// The installation prefix: this program is <prefix>/bin/mstage++, with
// symbolic links resolved (the kernel's /proc/self/exe), so that a link to
// it from elsewhere still finds its own tree.
static std::string prefixDir(const char *Argv0) {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  if (Exe.empty())
    return "";
  return sys::path::parent_path(sys::path::parent_path(Exe)).str();
}

static bool hasArg(int Argc, char **Argv, StringRef Flag) {
  for (int I = 1; I < Argc; ++I)
    if (Flag == Argv[I])
      return true;
  return false;
}

// The first .cu input that clang would compile as CUDA (no -x before it
// names another language), or null. mstage compiles standard C++: clang's
// CUDA mode would compile the file for the host and the GPU with CUDA's
// headers, which mstage's plugin and headers do not support.
static const char *cudaInput(int Argc, char **Argv) {
  StringRef Language; // the language of a -x before the input; empty: none
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "-x" && I + 1 < Argc) {
      Language = Argv[++I];
      continue;
    }
    if (A.consume_front("-x")) {
      Language = A;
      continue;
    }
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") { // an output
      ++I;
      continue;
    }
    if (!A.starts_with("-") && A.ends_with(".cu") &&
        (Language.empty() || Language == "none" || Language == "cuda"))
      return Argv[I];
  }
  return nullptr;
}

// True when clang will run the linker for this command line.
static bool willLink(int Argc, char **Argv) {
  bool HasInput = false;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    for (const char *NoLink :
         {"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "--version",
          "-dumpversion", "-dumpmachine", "-###", "--help"})
      if (std::strcmp(A, NoLink) == 0)
        return false;
    if (std::strncmp(A, "-print-", 7) == 0 ||
        std::strncmp(A, "--print-", 8) == 0)
      return false;
    if (A[0] != '-')
      HasInput = true;
  }
  return HasInput;
}

// Whether option A turns debug information on (1), off (-1) or leaves it as
// it is (0): -gz, -gsplit-dwarf, -gcolumn-info and the like only change
// the form of the debug information that another option asks for.
static int debugInfoEffect(const char *A) {
  if (std::strcmp(A, "-g0") == 0 || std::strcmp(A, "-ggdb0") == 0)
    return -1;
  for (const char *On :
       {"-g", "--debug", "-g1", "-g2", "-g3", "-ggdb", "-ggdb1", "-ggdb2",
        "-ggdb3", "-glldb", "-gsce", "-gdbx", "-gline-tables-only", "-gmlt",
        "-gline-directives-only", "-gcodeview", "-gmodules", "-gfull",
        "-gused"})
    if (std::strcmp(A, On) == 0)
      return 1;
  // -gdwarf, -gdwarf-4, -gdwarf64, ...; -gdwarf-aranges is only a form.
  if (std::strncmp(A, "-gdwarf", 7) == 0 &&
      std::strcmp(A, "-gdwarf-aranges") != 0)
    return 1;
  return 0;
}

// True when the command line enables debug information (the last option
// that turns it on or off wins, as in clang).
static bool asksForDebugInfo(int Argc, char **Argv) {
  bool Debug = false;
  for (int I = 1; I < Argc; ++I)
    if (int Effect = debugInfoEffect(Argv[I]))
      Debug = Effect > 0;
  return Debug;
}

// The file that -o names, or "" (the last -o wins, as in clang).
static std::string outputFile(int Argc, char **Argv) {
  std::string Out;
  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "-o") == 0 && I + 1 < Argc)
      Out = Argv[++I];
    else if (std::strncmp(Argv[I], "-o", 2) == 0 && Argv[I][2])
      Out = Argv[I] + 2;
  }
  return Out;
}

static bool sameFile(const struct stat &A, const struct stat &B) {
  return A.st_dev == B.st_dev && A.st_ino == B.st_ino;
}

// The argument that names the same file as the output, if one does: the
// compile would overwrite its own input (clang would truncate a source it
// has not read yet).
static const char *inputIsOutput(int Argc, char **Argv) {
  std::string Out = outputFile(Argc, Argv);
  struct stat OutSt;
  if (Out.empty() || Out == "-" || stat(Out.c_str(), &OutSt) != 0)
    return nullptr;
  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "-o") == 0) {
      ++I; // the output itself
      continue;
    }
    struct stat St;
    if (Argv[I][0] != '-' && stat(Argv[I], &St) == 0 && sameFile(St, OutSt))
      return Argv[I];
  }
  return nullptr;
}

// The object that -c writes where the ahead-of-time images can go into an
// object of their own, joined to it afterwards, so that clang's host code
// generation does not wait for them (docs/compiling.md); "" where the
// command writes no single object file at a known path (no -o, -o -,
// -save-temps, LTO's bitcode, -S, -E, a device such as /dev/null, ...): the
// images are then embedded in the host object, after a wait.
static std::string joinableObject(int Argc, char **Argv) {
  if (!hasArg(Argc, Argv, "-c"))
    return "";
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A == "-S" || A == "-E" || A == "-emit-llvm" || A == "-fsyntax-only" ||
        A == "-M" || A == "-MM" || A == "-###" ||
        A.starts_with("-save-temps") || A.starts_with("--save-temps") ||
        (A.starts_with("-flto") && A != "-flto=none" && A != "-fno-lto") ||
        A == "-fno-mstage-aot-overlap")
      return "";
  }
  std::string Out = outputFile(Argc, Argv);
  // Not a device or a pipe (-o /dev/null): only a regular file is replaced.
  if (Out == "-" || (sys::fs::exists(Out) && !sys::fs::is_regular_file(Out)))
    return "";
  return Out;
}

// A command as -v shows it.
static void showCommand(ArrayRef<std::string> Args) {
  errs() << "mstage++:";
  for (const std::string &A : Args) {
    errs() << ' ';
    sys::printArg(errs(), A, /*Quote=*/true);
  }
  errs() << '\n';
  errs().flush();
}

// Runs Program with Args, shown first under -v; its exit status, or -1 when
// it could not run (Error says why).
static int runProgram(StringRef Program, ArrayRef<std::string> Args,
                      bool Verbose, std::string &Error) {
  if (Verbose)
    showCommand(Args);
  SmallVector<StringRef, 64> Refs(Args.begin(), Args.end());
  int Rc = sys::ExecuteAndWait(Program, Refs, std::nullopt, {}, 0, 0, &Error);
  return Rc == -2 ? 1 : Rc; // -2: it crashed, and said so
}

// The linker that joins the objects, found as clang finds the one it links
// with: --ld-path=PATH, else -fuse-ld=NAME (a path, or ld.NAME) or ld,
// beside clang and then on PATH (the last option of each kind wins).
static ErrorOr<std::string> joiningLinker(int Argc, char **Argv,
                                          StringRef Clang) {
  StringRef LdPath, UseLd;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    if (A.consume_front("--ld-path="))
      LdPath = A;
    else if (A.consume_front("-fuse-ld="))
      UseLd = A;
  }
  std::string Name = !LdPath.empty()                  ? LdPath.str()
                     : UseLd.empty() || UseLd == "ld" ? std::string("ld")
                     : UseLd.contains('/')            ? UseLd.str()
                                                      : ("ld." + UseLd).str();
  if (StringRef(Name).contains('/'))
    return sys::fs::can_execute(Name)
               ? ErrorOr<std::string>(Name)
               : ErrorOr<std::string>(std::make_error_code(
                     std::errc::no_such_file_or_directory));
  SmallString<128> ClangDir(Clang);
  sys::fs::real_path(Clang, ClangDir);
  sys::path::remove_filename(ClangDir);
  if (ErrorOr<std::string> Beside =
          sys::findProgramByName(Name, {ClangDir.str()}))
    return Beside;
  return sys::findProgramByName(Name);
}

// Joins the images' object Aot to the host object Out (`ld -r`), in place.
// "" when it did, else why not (Out is then not to be used: it names a table
// that only Aot defines).
static std::string joinObjects(const std::string &Out, const std::string &Aot,
                               int Argc, char **Argv, StringRef Clang,
                               bool Verbose) {
  ErrorOr<std::string> Ld = joiningLinker(Argc, Argv, Clang);
  if (!Ld)
    return "no linker found (ld, or the one -fuse-ld= or --ld-path= names)";
  SmallString<128> Joined;
  int FD;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Out + ".mstage-%%%%%%.o", FD, Joined))
    return EC.message();
  sys::Process::SafelyCloseFileDescriptor(FD);
  FileRemover RemoveJoined(Joined);
  std::string Error;
  int Rc = runProgram(*Ld, {*Ld, "-r", "-o", Joined.str().str(), Out, Aot},
                      Verbose, Error);
  if (Rc != 0)
    return Rc < 0 ? Error : *Ld + " -r failed";
  if (std::error_code EC = sys::fs::rename(Joined, Out))
    return EC.message();
  return "";
}

int main(int Argc, char **Argv) {
  if (const char *In = inputIsOutput(Argc, Argv)) {
    fprintf(stderr,
            "mstage++: error: input file '%s' is the same as the output file; "
            "give -o another name\n",
            In);
    return 1;
  }
  std::string Prefix = prefixDir(Argv[0]);
  if (Prefix.empty()) {
    fprintf(stderr, "mstage++: error: cannot find where mstage++ is "
                    "installed (/proc/self/exe is unreadable); run it "
                    "with /proc mounted\n");
    return 1;
  }
  std::string Plugin = Prefix + "/lib/mstage/MStagePlugin.so";
  std::string LibDir = Prefix + "/lib";
  std::string Include = Prefix + "/include";
  for (const std::string &Needed : {Plugin, Include + "/mstage.hpp"})
    if (!sys::fs::exists(Needed)) {
      fprintf(stderr,
              "mstage++: error: %s is missing; mstage++ finds its plugin, "
              "headers and runtime in %s (bin/, lib/, include/): reinstall "
              "mstage\n",
              Needed.c_str(), Prefix.c_str());
      return 1;
    }
  const char *Cxx = std::getenv("MSTAGE_CXX");
  std::string Clang = Cxx && *Cxx ? Cxx : MSTAGE_CLANGXX;

  // --version: mstage's and the LLVM's it was built with; clang then adds
  // its own (the Clang the plugin is loaded into).
  if (hasArg(Argc, Argv, "--version")) {
    outs() << "mstage " << MSTAGE_VERSION_STRING << " (" << Prefix << ")\n"
           << "built with LLVM " << LLVM_VERSION_STRING << ", runs " << Clang
           << ":\n";
    outs().flush();
  }

  if (const char *Cu = cudaInput(Argc, Argv)) {
    fprintf(stderr,
            "mstage++: error: '%s' is a CUDA file (.cu): mstage compiles "
            "standard C++, with kernels as lambdas; rename it to .cpp, or "
            "give -x c++ before it (see docs/porting-from-cuda.md)\n",
            Cu);
    return 1;
  }

  std::vector<std::string> Args = {Clang, "-fplugin=" + Plugin,
                                   "-fpass-plugin=" + Plugin};
  // Installed under /usr (the .deb), the headers are in the compiler's own
  // system directory: naming it again would move it before libstdc++'s,
  // whose #include_next <stdlib.h> would then miss it.
  if (!sys::fs::equivalent(Include, "/usr/include")) {
    Args.push_back("-isystem");
    Args.push_back(Include);
  }
  Args.push_back("-D__MSTAGE__=1");
  // -mstage-arch=LIST is mstage's own (the plugin checks the names).
  const char *AotArchs = nullptr;
  for (int I = 1; I < Argc; ++I) {
    if (std::strncmp(Argv[I], "-mstage-arch", 12) == 0) {
      if (Argv[I][12] != '=' || !Argv[I][13]) {
        fprintf(stderr,
                "mstage++: error: '%s' needs architectures: "
                "-mstage-arch=sm_80,sm_90 or -mstage-arch=none\n",
                Argv[I]);
        return 1;
      }
      AotArchs = Argv[I] + 13;
      continue;
    }
    // -f[no-]mstage-aot-overlap: whether -c writes the ahead-of-time code
    // into an object of its own beside the host code generation (the
    // default) or waits for it and embeds it (joinableObject).
    if (StringRef(Argv[I]) == "-fmstage-aot-overlap" ||
        StringRef(Argv[I]) == "-fno-mstage-aot-overlap")
      continue;
    // -f[no-]mstage-checks: bounds and barrier checks on or off, whatever
    // the optimization level (mstage/bounds_check.hpp).
    if (StringRef(Argv[I]) == "-fmstage-checks" ||
        StringRef(Argv[I]) == "-fno-mstage-checks") {
      Args.push_back(Argv[I][2] == 'n' ? "-DMSTAGE_BOUNDS_CHECK=0"
                                       : "-DMSTAGE_BOUNDS_CHECK=1");
      continue;
    }
    Args.push_back(Argv[I]);
  }
  if (AotArchs)
    for (const std::string &A :
         {std::string("-Xclang"), std::string("-plugin-arg-mstage"),
          std::string("-Xclang"), "aot-arch=" + std::string(AotArchs)})
      Args.push_back(A);
  // stage() errors name source lines and columns, so the compile always has
  // line tables with columns (whatever -gno-column-info says); when the user
  // did not ask for debug information the plugin strips them from the
  // object again, and no split DWARF file is written for them.
  Args.push_back("-gcolumn-info");
  if (!asksForDebugInfo(Argc, Argv))
    for (const char *A : {"-gline-tables-only", "-gno-split-dwarf", "-Xclang",
                          "-plugin-arg-mstage", "-Xclang", "strip-debug-info"})
      Args.push_back(A);
  // The runtime's directory is an absolute RUNPATH: the program and mstage
  // are separate trees, so a path relative to the program ($ORIGIN) would
  // not follow either. /usr/lib needs none.
  if (willLink(Argc, Argv)) {
    Args.push_back("-L" + LibDir);
    if (!sys::fs::equivalent(LibDir, "/usr/lib"))
      Args.push_back("-Wl,-rpath," + LibDir);
    Args.push_back("-lmstage_rt");
    Args.push_back("-pthread");
  }

  // -v: clang shows its own commands; the ones that run clang and ld are ours.
  bool Verbose = hasArg(Argc, Argv, "-v");
  std::string Object = joinableObject(Argc, Argv);
  if (!Object.empty() && StringRef(AotArchs ? AotArchs : "") != "none") {
    SmallString<128> Aot;
    if (std::error_code EC =
            sys::fs::createTemporaryFile("mstage-aot", "o", Aot)) {
      fprintf(stderr, "mstage++: error: cannot create a temporary file: %s\n",
              EC.message().c_str());
      return 1;
    }
    FileRemover RemoveAot(Aot);
    size_t WithoutAot = Args.size();
    for (const std::string &A :
         {std::string("-Xclang"), std::string("-plugin-arg-mstage"),
          std::string("-Xclang"), "aot-object=" + Aot.str().str()})
      Args.push_back(A);
    std::string Error;
    int Rc = runProgram(Clang, Args, Verbose, Error);
    if (Rc < 0) {
      fprintf(stderr, "mstage++: error: cannot run %s: %s\n", Clang.c_str(),
              Error.c_str());
      return 1;
    }
    if (Rc != 0)
      return Rc;
    // Empty: the unit had no ahead-of-time code to write, or the plugin
    // embedded it (a target that the host's linker cannot join).
    uint64_t Size = 0;
    if (sys::fs::file_size(Aot, Size) || Size == 0)
      return 0;
    std::string Why =
        joinObjects(Object, Aot.str().str(), Argc, Argv, Clang, Verbose);
    if (Why.empty())
      return 0;
    // The compile worked: it does again, waiting for the code to embed it.
    fprintf(stderr,
            "mstage++: warning: cannot join the ahead-of-time code's object "
            "to %s: %s; compiling again with the code in the object "
            "(-fno-mstage-aot-overlap does so at once)\n",
            Object.c_str(), Why.c_str());
    sys::fs::remove(Object);
    Args.resize(WithoutAot);
  }

  if (Verbose)
    showCommand(Args);

  std::vector<char *> CArgs;
  for (std::string &A : Args)
    CArgs.push_back(A.data());
  CArgs.push_back(nullptr);
  execv(Clang.c_str(), CArgs.data());
  fprintf(stderr, "mstage++: error: cannot run %s: %s\n", Clang.c_str(),
          std::strerror(errno));
  return 1;
}
