//===- PassRegistry.cpp - The names and parameters of mstage's passes -----===//
//
// Parameters follow LLVM's own: `name<key=value;flag;...>`, parsed with
// PassBuilder::parsePassParameters. A parameter that does not parse becomes
// a pass that reports it when the pipeline runs, so that the error is one
// "mstage: ..." line rather than opt's unknown-pass message.
//
//===----------------------------------------------------------------------===//
#include "plugin/KernelExtraction.h"
#include "plugin/Passes.h"
#include "transforms/Diagnostics.h"
#include "transforms/LargeLoopUnroll.h"
#include "transforms/ParameterRemat.h"
#include "transforms/UniformVersioning.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

namespace mstage {
namespace {

struct ReportParameterError : PassInfoMixin<ReportParameterError> {
  std::string Message;
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    reportError(M, Message);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

Error bad(StringRef Pass, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Pass + ": " + Why);
}

// Calls Param(Key, Value) for each `key=value` or `flag` of Params.
Error forEachParam(StringRef Params,
                   function_ref<Error(StringRef Key, StringRef Value)> Param) {
  while (!Params.empty()) {
    StringRef One;
    std::tie(One, Params) = Params.split(';');
    auto [Key, Value] = One.split('=');
    if (Error E = Param(Key.trim(), Value.trim()))
      return E;
  }
  return Error::success();
}

template <class T>
Error parseNumber(StringRef Pass, StringRef Key, StringRef Value, T &Out) {
  if (Value.getAsInteger(0, Out))
    return bad(Pass, "'" + Key + "=" + Value + "' needs a number");
  return Error::success();
}

// "4x1x1"; missing axes are 1. Not "4,1,1": LLVM 22's pipeline parser
// splits the pipeline at every comma, inside <...> too.
Error parseExtent(StringRef Pass, StringRef Key, StringRef Value,
                  uint32_t (&Out)[3]) {
  SmallVector<StringRef, 3> Axes;
  Value.split(Axes, 'x');
  if (Axes.size() > 3)
    return bad(Pass, "'" + Key + "=" + Value + "' has more than 3 axes");
  for (unsigned I = 0; I < 3; ++I)
    if (I >= Axes.size())
      Out[I] = 1;
    else if (Error E = parseNumber(Pass, Key, Axes[I], Out[I]))
      return E;
  return Error::success();
}

// "I:T:V": the bytes of V as type T (i8..i64, f32, f64, x for hex bytes),
// little-endian as on the host and the GPU.
Error parseStaged(StringRef Pass, StringRef Value,
                  std::vector<std::string> &Values) {
  auto Bad = [&](const Twine &Why) {
    return bad(Pass, "'stage=" + Value + "': " + Why);
  };
  SmallVector<StringRef, 3> Parts;
  Value.split(Parts, ':', 2);
  unsigned Index;
  if (Parts.size() != 3 || Parts[0].getAsInteger(10, Index))
    return Bad("write it as SITE:TYPE:VALUE, for example stage=0:i32:7");
  StringRef Type = Parts[1], Text = Parts[2];
  std::string Bytes;
  unsigned Width = StringSwitch<unsigned>(Type)
                       .Case("i8", 1)
                       .Case("i16", 2)
                       .Case("i32", 4)
                       .Case("i64", 8)
                       .Case("f32", 4)
                       .Case("f64", 8)
                       .Default(0);
  if (Type == "x") {
    if (Text.size() % 2 || !tryGetFromHex(Text, Bytes))
      return Bad("the value is not hex bytes");
  } else if (Type.starts_with("f") && Width) {
    double D;
    if (Text.getAsDouble(D))
      return Bad("the value is not a number");
    Bytes.resize(Width);
    if (Width == 4)
      support::endian::write32le(Bytes.data(), bit_cast<uint32_t>(float(D)));
    else
      support::endian::write64le(Bytes.data(), bit_cast<uint64_t>(D));
  } else if (Width) {
    int64_t N;
    if (Text.getAsInteger(0, N))
      return Bad("the value is not an integer");
    Bytes.resize(8);
    support::endian::write64le(Bytes.data(), uint64_t(N));
    Bytes.resize(Width);
  } else {
    return Bad("the type must be i8, i16, i32, i64, f32, f64 or x");
  }
  assert((Type == "x" || Bytes.size() == Width) &&
         "a typed value has its type's width");
  if (Values.size() <= Index)
    Values.resize(Index + 1);
  Values[Index] = std::move(Bytes);
  return Error::success();
}

Expected<SpecializeOptions> parseSpecializeOptions(StringRef Params) {
  constexpr StringLiteral Pass = "mstage-specialize";
  SpecializeOptions O;
  // Folded once grid, block or shared is given.
  auto Config = [&]() -> LaunchConfig & {
    return O.Config ? *O.Config : O.Config.emplace();
  };
  Error E = forEachParam(Params, [&](StringRef Key, StringRef Value) -> Error {
    if (Key == "kernel") {
      O.Kernel = Value.str();
    } else if (Key == "grid" || Key == "block") {
      return parseExtent(Pass, Key, Value,
                         Key == "grid" ? Config().grid : Config().block);
    } else if (Key == "shared") {
      O.FoldSharedBytes = true;
      return parseNumber(Pass, Key, Value, Config().shared_bytes);
    } else if (Key == "stage") {
      return parseStaged(Pass, Value, O.StagedValues);
    } else {
      return bad(Pass, "unknown parameter '" + Key +
                           "' (kernel, grid, block, shared, stage)");
    }
    return Error::success();
  });
  if (E)
    return std::move(E);
  for (size_t I = 0; I < O.StagedValues.size(); ++I)
    if (O.StagedValues[I].empty())
      return bad(Pass, "no value for stage site " + Twine(I) +
                           "; give every site from 0 (stage=" + Twine(I) +
                           ":TYPE:VALUE)");
  return O;
}

Expected<LaunchFactsOptions> parseFactsOptions(StringRef Params) {
  constexpr StringLiteral Pass = "mstage-launch-facts";
  LaunchFactsOptions O;
  Error E = forEachParam(Params, [&](StringRef Key, StringRef Value) -> Error {
    if (Key == "kernel")
      O.Kernel = Value.str();
    else if (Key == "facts")
      O.Facts = Value.str();
    else if (Key == "after")
      O.After = true;
    else
      return bad(Pass,
                 "unknown parameter '" + Key + "' (kernel, facts, after)");
    return Error::success();
  });
  if (E)
    return std::move(E);
  return O;
}

Expected<CaptureInMemoryOptions> parseCaptureOptions(StringRef Params) {
  constexpr StringLiteral Pass = "mstage-capture-in-memory";
  CaptureInMemoryOptions O;
  Error E = forEachParam(Params, [&](StringRef Key, StringRef Value) -> Error {
    if (Key == "kernel") {
      O.Kernel = Value.str();
    } else if (Key == "arch") {
      O.Arch = Value.str();
    } else if (Key == "staged-bytes") {
      return parseNumber(Pass, Key, Value, O.StagedBytes);
    } else if (Key == "params") {
      unsigned N;
      if (Error E = parseNumber(Pass, Key, Value, N))
        return E;
      O.NumParams = N;
    } else if (Key == "mask") {
      uint64_t M;
      if (Error E = parseNumber(Pass, Key, Value, M))
        return E;
      O.Mask = M;
    } else {
      return bad(Pass, "unknown parameter '" + Key +
                           "' (kernel, arch, staged-bytes, params, mask)");
    }
    return Error::success();
  });
  if (E)
    return std::move(E);
  return O;
}

Expected<KernelChoice> parseEntryWaitOptions(StringRef Params) {
  KernelChoice O;
  Error E = forEachParam(Params, [&](StringRef Key, StringRef Value) -> Error {
    if (Key != "kernel")
      return bad("mstage-kernel-entry-wait",
                 "unknown parameter '" + Key + "' (kernel)");
    O.Kernel = Value.str();
    return Error::success();
  });
  if (E)
    return std::move(E);
  return O;
}

Expected<GenericKernelOptions> parseGenericOptions(StringRef Params) {
  constexpr StringLiteral Pass = "mstage-generic-kernel";
  GenericKernelOptions O;
  Error E = forEachParam(Params, [&](StringRef Key, StringRef Value) -> Error {
    if (Key == "kernel") {
      O.Kernel = Value.str();
    } else if (Key == "sites") {
      SmallVector<StringRef, 4> Sizes;
      Value.split(Sizes, ':', -1, /*KeepEmpty=*/false);
      for (StringRef S : Sizes)
        if (Error E = parseNumber(Pass, Key, S, O.SiteSizes.emplace_back()))
          return E;
    } else {
      return bad(Pass, "unknown parameter '" + Key + "' (kernel, sites)");
    }
    return Error::success();
  });
  if (E)
    return std::move(E);
  return O;
}

// Adds the pass that Parse's options make, or the error's reporter.
template <class PassT, class ParseT>
bool addParametrized(StringRef Name, StringRef PassName, ParseT Parse,
                     ModulePassManager &MPM) {
  if (!PassBuilder::checkParametrizedPassName(Name, PassName))
    return false;
  auto Opts = PassBuilder::parsePassParameters(Parse, Name, PassName);
  if (Opts)
    MPM.addPass(PassT(std::move(*Opts)));
  else
    MPM.addPass(ReportParameterError{{}, toString(Opts.takeError())});
  return true;
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                     ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "mstage-extract-kernels")
    return MPM.addPass(KernelExtractionPass()), true;
  if (Name == "mstage-stage-slicing")
    return MPM.addPass(StageSlicingPass()), true;
  if (Name == "mstage-retarget")
    return MPM.addPass(DeviceRetargetPass()), true;
  if (Name == "mstage-lower-builtins")
    return MPM.addPass(DeviceBuiltinsPass()), true;
  if (Name == "mstage-shared-arrays")
    return MPM.addPass(DeviceSharedArraysPass()), true;
  if (Name == "mstage-complex")
    return MPM.addPass(DeviceComplexPass()), true;
  if (Name == "mstage-lower-assert")
    return MPM.addPass(DeviceAssertPass()), true;
  if (Name == "mstage-scope-atomics")
    return MPM.addPass(DeviceAtomicScopesPass()), true;
  if (Name == "mstage-fence-atomics")
    return MPM.addPass(DeviceAtomicFencesPass()), true;
  if (Name == "mstage-lower-printf")
    return MPM.addPass(DevicePrintfPass()), true;
  if (Name == "mstage-lower-for-device")
    return MPM.addPass(DeviceLoweringPass()), true;
  return addParametrized<KernelSpecializationPass>(
             Name, "mstage-specialize", parseSpecializeOptions, MPM) ||
         addParametrized<LaunchFactsPass>(Name, "mstage-launch-facts",
                                          parseFactsOptions, MPM) ||
         addParametrized<CaptureInMemoryPass>(Name, "mstage-capture-in-memory",
                                              parseCaptureOptions, MPM) ||
         addParametrized<GenericKernelPass>(Name, "mstage-generic-kernel",
                                            parseGenericOptions, MPM) ||
         addParametrized<KernelEntryWaitPass>(Name, "mstage-kernel-entry-wait",
                                              parseEntryWaitOptions, MPM);
}

bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM,
                       ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "mstage-small-copies")
    return FPM.addPass(SmallCopiesPass()), true;
  if (Name == "mstage-keep-large-loops")
    return FPM.addPass(KeepLargeLoopsRolledPass()), true;
  if (Name == "mstage-version-argument-tests")
    return FPM.addPass(UniformVersioningPass()), true;
  if (Name == "mstage-remat-parameters")
    return FPM.addPass(ParameterRematPass()), true;
  return false;
}

} // namespace

void registerMStagePasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parseModulePass);
  PB.registerPipelineParsingCallback(parseFunctionPass);
}

} // namespace mstage
